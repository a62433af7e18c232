"""Designer commands of the `ludex` CLI: check, graph, ir, simulate, play.

Thin faces over `dsl` (checking, the turn-structure graph) and `api.simulation`.
"""

from __future__ import annotations

import json
import random
import sys
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

from dsl import RulesetError, bundled_rulesets, check, load_ruleset, parse_expr
from dsl.ir import to_data
from dsl.placeholders import count_by_kind, placeholders

VariantOpt = typer.Option([], "--variant", "-v", help="variant to apply (repeatable, applied in order)")


def _parse_options(pairs: list[str]) -> dict[str, Any]:
    """`K=V` pairs; V is a rule-language literal (`2`, `true`, `none`, `"text"`)."""
    out: dict[str, Any] = {}
    for p in pairs:
        if "=" not in p:
            raise typer.BadParameter(f"options are K=V, got {p!r}")
        k, v = p.split("=", 1)
        node = parse_expr(v.strip(), f"--option {k}")
        if node.op != "lit":
            raise typer.BadParameter(f"option {k}: {v!r} is not a literal")
        out[k.strip()] = node.args[0]
    return out


def register(app: typer.Typer) -> None:
    @app.command("check")
    def check_cmd(
        ruleset: str = typer.Argument(..., help="bundled ruleset name, folder or .ludex file"),
        variant: list[str] = VariantOpt,
        as_json: bool = typer.Option(False, "--json", help="print diagnostics as JSON for editors"),
        all_variants: bool = typer.Option(False, "--all-variants", help="also check each variant of the ruleset alone"),
        list_placeholders: bool = typer.Option(False, "--placeholders", help="also list every placeholder with file:line"),
    ) -> None:
        """Check a ruleset (and variants): exit 0 when clean, 1 with diagnostics.

        A clean ruleset with placeholders (docs/language.md, "Placeholders") gets a note with
        their count; the note is not an error.
        """
        combos = [list(variant)]
        if all_variants:
            info = next((b for b in bundled_rulesets() if b.name == ruleset), None)
            names = info.variants if info else []
            combos += [[v] for v in names]
        diags = []
        for combo in combos:
            diags += check(ruleset, combo)
        marked = [] if diags else placeholders(load_ruleset(ruleset, variant))
        if as_json:
            out: dict[str, Any] = {"ok": not diags, "diagnostics": [d.to_dict() for d in diags]}
            if marked:
                out["placeholders"] = {"count": len(marked), "by_kind": count_by_kind(marked)}
                if list_placeholders:
                    out["placeholders"]["items"] = [p.to_dict() for p in marked]
            print(json.dumps(out, indent=2))
        else:
            for d in diags:
                print(d, file=sys.stderr)
            if not diags:
                print(f"{ruleset}{''.join(' +' + v for v in variant)}: ok")
            if marked:
                print(_placeholder_note(ruleset, marked))
                if list_placeholders:
                    for p in marked:
                        print(p)
        raise typer.Exit(1 if any(d.severity == "error" for d in diags) else 0)

    @app.command("placeholders")
    def placeholders_cmd(
        ruleset: str = typer.Argument(...),
        variant: list[str] = VariantOpt,
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """List every placeholder (a declaration whose doc string starts with PLACEHOLDER) with file:line."""
        marked = placeholders(_load(ruleset, variant))
        if as_json:
            print(json.dumps({"count": len(marked), "by_kind": count_by_kind(marked), "items": [p.to_dict() for p in marked]}, indent=2))
            return
        for p in marked:
            print(p)
        print(_placeholder_note(ruleset, marked))

    @app.command("graph")
    def graph_cmd(
        ruleset: str = typer.Argument(...),
        variant: list[str] = VariantOpt,
        dot: bool = typer.Option(False, "--dot", help="Graphviz DOT instead of Mermaid"),
    ) -> None:
        """Print the turn structure (steps and the moves between them) as Mermaid or DOT."""
        from dsl.graph import turn_graph

        rs = _load(ruleset, variant)
        print(turn_graph(rs, dot=dot))

    @app.command("ir")
    def ir_cmd(ruleset: str = typer.Argument(...), variant: list[str] = VariantOpt) -> None:
        """Print the compiled IR as JSON, with its content hash."""
        rs = _load(ruleset, variant)
        print(json.dumps({"content_hash": rs.content_hash, "ir": to_data(rs.to_data())}, indent=1))

    @app.command("simulate")
    def simulate_cmd(
        ruleset: str = typer.Argument(...),
        variant: list[str] = VariantOpt,
        seats: int = typer.Option(None, "--seats", help="number of seats (default: the fewest allowed)"),
        option: list[str] = typer.Option([], "--option", "-o", help="K=V option override (repeatable)"),
        games: int = typer.Option(100, "--games", "-n"),
        seed: int = typer.Option(0, "--seed"),
        max_plies: int = typer.Option(5000, "--max-plies"),
        as_json: bool = typer.Option(False, "--json"),
    ) -> None:
        """Random legal playouts with statistics: outcomes by seat, game length, branching, speed."""
        from api.simulation import simulate

        rs = _load(ruleset, variant)
        opts = _parse_options(option)
        console = Console(stderr=True)
        if as_json:
            stats = simulate(rs, seats, opts, games, seed, max_plies)
            print(json.dumps(stats, indent=2))
            return
        from rich.progress import Progress

        with Progress(console=console, transient=True) as progress:
            task = progress.add_task(f"simulating {rs.name}", total=games)
            stats = simulate(rs, seats, opts, games, seed, max_plies, on_game=lambda: progress.advance(task))
        _print_stats(stats)

    @app.command("play")
    def play_cmd(
        ruleset: str = typer.Argument(...),
        variant: list[str] = VariantOpt,
        seat: int = typer.Option(0, "--seat", help="the seat you play"),
        seats: int = typer.Option(None, "--seats"),
        option: list[str] = typer.Option([], "--option", "-o"),
        seed: int = typer.Option(None, "--seed"),
    ) -> None:
        """Play in the terminal against random seats, seeing only your seat's view."""
        from runtime import Game

        rs = _load(ruleset, variant)
        g = Game.new(rs, seats, _parse_options(option), seed=seed if seed is not None else random.randrange(1 << 30))
        rng = random.Random(seed)
        console = Console()
        while not g.terminal:
            d = g.decision()
            if d.stuck:
                console.print("[red]no seat can move: the rules are stuck[/red]")
                break
            actor = d.seats[0]
            moves = g.legal_moves(actor)
            if actor != seat:
                m = rng.choice(moves)
                console.print(f"seat {actor}: {m.name} {json.dumps(m.args)}")
                g.apply(actor, m)
                continue
            console.print_json(json.dumps(_compact_view(g.view(seat))))
            for i, m in enumerate(moves):
                console.print(f"  [bold]{i}[/bold]: {m.name} {json.dumps(m.args)}")
            choice = typer.prompt("your move", type=int)
            if 0 <= choice < len(moves):
                g.apply(seat, moves[choice])
        console.print(f"game over: {json.dumps(g.outcome)}")


def _compact_view(v: dict) -> dict:
    """The view without empty zones, for the terminal."""
    zones = {k: z for k, z in v["zones"].items() if z.get("count")}
    return {**v, "zones": zones}


def _placeholder_note(ruleset: str, marked: list) -> str:
    kinds = ", ".join(f"{n} {k or 'unkinded'}" for k, n in count_by_kind(marked).items())
    return f"note: {ruleset} has {len(marked)} placeholder{'s' if len(marked) != 1 else ''} ({kinds}); `ludex placeholders {ruleset}` lists them"


def _load(ruleset: str, variants: list[str]):
    try:
        return load_ruleset(ruleset, variants)
    except RulesetError as exc:
        for d in exc.diagnostics:
            print(d, file=sys.stderr)
        raise typer.Exit(1) from None


def _print_stats(s: dict) -> None:
    c = Console()
    t = Table(title=f"{s['ruleset']} — {s['games']} games, {s['seats']} seats")
    t.add_column("outcome")
    t.add_column("games", justify="right")
    for k, v in s["outcomes"].items():
        t.add_row(k, str(v))
    c.print(t)
    r = Table(title="how games ended")
    r.add_column("reason")
    r.add_column("games", justify="right")
    for k, v in s["reasons"].items():
        r.add_row(k, str(v))
    c.print(r)
    m = Table(show_header=False)
    for k in ("plies", "mean_plies", "min_plies", "max_plies", "mean_branching", "seconds", "playouts_per_s", "plies_per_s"):
        m.add_row(k, f"{s[k]:.2f}" if isinstance(s[k], float) else str(s[k]))
    if s.get("mean_team_score") is not None:
        m.add_row("mean_team_score", f"{s['mean_team_score']:.2f}")
    c.print(m)
