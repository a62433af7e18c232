"""`make mutation`: mutation-test the modules of `mutation/modules.toml` with mutmut 3, one at a
time, and print each module's score (killed / mutants tested).

mutmut reads its settings from `pyproject.toml` in the folder it runs in and copies the sources
into `mutants/` there. So that each module gets its own narrow test selection, every module runs
in a scratch folder `build/mutation/<name>/` holding links to the project's folders and a
`pyproject.toml` with that module's `[tool.mutmut]` section. mutmut keeps its results there, so
a second run only tests new mutants and the survivors of the last run.

    python -m mutation.run                # every module
    python -m mutation.run chain views    # some of them
    python -m mutation.run --list chain   # the survivors of the last run, with their diffs

A module passes at `--target` percent (default 90). Exit status 1 if one does not. Source:
mutmut's README ("mutmut run", "mutmut results", "mutmut show"), its pyproject settings
`source_paths`, `only_mutate`, `also_copy`, `pytest_add_cli_args_test_selection`.
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULES = ROOT / "mutation" / "modules.toml"
PACKAGES = ["dsl", "runtime", "search", "api", "ludex"]
LINKED = [*PACKAGES, "grammars", "rulesets", "tests", "docs", "README.md", "setup.py", "bench"]
KILLED = {"killed", "timeout", "caught by type check", "segfault"}  # the test run noticed the mutant
NOT_TESTED = {"not checked", "skipped"}


def _mutmut() -> list[str]:
    return ["nice", "-n", os.environ.get("MUTATION_NICE", "15"), str(Path(sys.executable).parent / "mutmut")]


def _settings(module: dict) -> str:
    """The `[tool.mutmut]` section for one module."""
    lines = [
        "[tool.mutmut]",
        f"source_paths = {json.dumps(PACKAGES)}",
        f"only_mutate = {json.dumps([module['source']])}",
        f"also_copy = {json.dumps(LINKED[len(PACKAGES):] + ['shared'])}",
        f"pytest_add_cli_args_test_selection = {json.dumps(module['tests'])}",
        f"pytest_add_cli_args = {json.dumps(['-p', 'no:cacheprovider', '-p', 'no:randomly', '-q', *module.get('pytest_args', [])])}",
        "use_git_change_detection = false",
    ]
    return "\n".join(lines) + "\n"


def prepare(name: str, module: dict) -> Path:
    """The scratch folder of module `name`, with its links and settings (made or refreshed)."""
    work = ROOT / "build" / "mutation" / name
    work.mkdir(parents=True, exist_ok=True)
    for entry in LINKED:
        link = work / entry
        if not link.exists():
            link.symlink_to(ROOT / entry)
    shared = work / "shared"  # tests open ../shared from the folder they run in (mutants/)
    if not shared.exists():
        shared.symlink_to((ROOT / ".." / "shared").resolve())
    base = (ROOT / "pyproject.toml").read_text()
    (work / "pyproject.toml").write_text(base.split("[tool.mutmut]")[0] + "\n" + _settings(module))
    return work


def results(work: Path, module: dict) -> dict[str, str]:
    """`{mutant: status}` of the module's mutants (only those of its `functions`, if given)."""
    out = subprocess.run([*_mutmut(), "results", "--all", "true"], cwd=work, capture_output=True, text=True,
                         check=True).stdout
    found = {}
    for line in out.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    patterns = module.get("functions")
    if patterns:
        found = {k: v for k, v in found.items() if any(fnmatch.fnmatch(k, p) for p in patterns)}
    return found


def score(found: dict[str, str]) -> tuple[int, int, list[str]]:
    """`(killed, tested, survivors)`: mutants no test ran are not counted as tested."""
    tested = {k: v for k, v in found.items() if v not in NOT_TESTED}
    killed = sum(v in KILLED for v in tested.values())
    return killed, len(tested), sorted(k for k, v in tested.items() if v not in KILLED)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help="modules of mutation/modules.toml (default: all)")
    ap.add_argument("--target", type=float, default=90.0, help="percent of mutants to kill")
    ap.add_argument("--list", action="store_true", help="show the survivors of the last run; run nothing")
    args = ap.parse_args(argv)
    modules = tomllib.loads(MODULES.read_text())
    unknown = sorted(set(args.names) - set(modules))
    if unknown:
        ap.error(f"no module {', '.join(unknown)} in {MODULES.name} (it has {', '.join(modules)})")
    failed = []
    for name in args.names or list(modules):
        module = modules[name]
        work = prepare(name, module)
        if not args.list:
            # which tests call which function is measured afresh, so that tests changed since the
            # last run count (mutmut only measures tests it has not seen before)
            (work / "mutants" / "mutmut-stats.json").unlink(missing_ok=True)
            run = [*_mutmut(), "run", "--max-children", os.environ.get("MUTATION_JOBS", "1")]
            subprocess.run([*run, *module.get("functions", [])], cwd=work, check=False)
            # mutmut keeps a verdict until the mutated function changes: a survivor of an earlier
            # run is tested again, by name, against the tests as they are now
            _, _, survivors = score(results(work, module))
            if survivors:
                subprocess.run([*run, *survivors], cwd=work, check=False)
        found = results(work, module)
        killed, tested, survivors = score(found)
        pct = 100.0 * killed / tested if tested else 0.0
        print(f"{name:10} {module['source']:24} {killed:4} killed of {tested:4} tested "
              f"({len(found) - tested} without a test): {pct:5.1f}%")
        for s in survivors:
            print(f"    survived: {s}")
            if args.list:
                show = subprocess.run([*_mutmut(), "show", s], cwd=work, capture_output=True, text=True)
                print("      " + show.stdout.replace("\n", "\n      "))
        if pct < args.target:
            failed.append(name)
    if failed:
        print(f"below {args.target:.0f}%: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
