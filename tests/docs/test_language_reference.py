"""docs/language.md cannot drift from the language (issue 2).

Every ```ludex block of the reference is a whole ruleset and must check clean; every
```ludex-variant block must apply cleanly to the ```ludex block before it; every ```ludex-check
block (rules, `---`, diagnostics) prints exactly those diagnostics; every rule, alias
and keyword of grammars/ludex.lark must occur in some example; and the examples must play:
each runs random legal moves without a run-time error or a stuck decision, and the race
example of "A first game" plays to its end.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest
from lark import Lark

import dsl
from runtime import Game

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "language.md"
GRAMMAR = ROOT / "grammars" / "ludex.lark"
FENCE = re.compile(r"^```(ludex|ludex-variant)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)


@attrs.frozen
class Example:
    """One fenced example: its number in the document (1-based), kind, text and, for a
    variant, the game example it extends."""

    n: int
    kind: str
    text: str
    line: int
    game: Example | None = None

    @property
    def file(self) -> str:
        return f"docs/language.md#{self.n}"

    @property
    def title(self) -> str:
        first = next(
            (ln.strip() for ln in self.text.splitlines() if ln.strip() and not ln.strip().startswith("#")), ""
        )
        return f"{self.n}:{first}"

    def sources(self) -> tuple[tuple[str, str], ...]:
        if self.game is None:
            return ((self.file, self.text),)
        return ((self.game.file, self.game.text), (self.file, self.text))


def _examples() -> list[Example]:
    text = DOC.read_text(encoding="utf-8")
    out: list[Example] = []
    last_game: Example | None = None
    for n, m in enumerate(FENCE.finditer(text), start=1):
        line = text.count("\n", 0, m.start()) + 1
        if m.group(1) == "ludex":
            ex = Example(n, "game", m.group(2), line)
            last_game = ex
        else:
            ex = Example(n, "variant", m.group(2), line, last_game)
        out.append(ex)
    return out


EXAMPLES = _examples()
GAMES = [e for e in EXAMPLES if e.kind == "game"]
VARIANTS = [e for e in EXAMPLES if e.kind == "variant"]


def _code(text: str) -> str:
    """Example text without comments and string literals (so keywords count only as code)."""
    text = re.sub(r'"([^"\\\n]|\\.)*"', '""', text)
    return re.sub(r"#[^\n]*", "", text)


def test_reference_has_examples():
    assert len(GAMES) >= 30, "docs/language.md lost its examples"
    assert VARIANTS, "docs/language.md has no ```ludex-variant example"


@pytest.mark.parametrize("ex", GAMES, ids=[e.title for e in GAMES])
def test_game_example_checks_clean(ex: Example):
    assert ex.text.lstrip().startswith("game "), f"line {ex.line}: a ```ludex example starts with `game NAME`"
    diags = dsl.check_text(ex.text, ex.file)
    assert diags == [], f"docs/language.md line {ex.line}:\n" + "\n".join(str(d) for d in diags)


@pytest.mark.parametrize("ex", VARIANTS, ids=[e.title for e in VARIANTS])
def test_variant_example_applies_to_its_game(ex: Example):
    assert ex.game is not None, f"line {ex.line}: a ```ludex-variant block needs a ```ludex game before it"
    header = re.match(r"\s*variant\s+(\w+)\s+extends\s+(\w+)", ex.text)
    assert header, f"line {ex.line}: a variant example starts with `variant NAME extends GAME`"
    game_name = re.match(r"\s*game\s+(\w+)", ex.game.text)
    assert game_name and header.group(2) == game_name.group(1), f"line {ex.line}: extends the wrong game"
    try:
        rs = dsl.load_from_sources(ex.sources())
    except dsl.RulesetError as exc:
        pytest.fail(f"docs/language.md line {ex.line}:\n" + "\n".join(str(d) for d in exc.diagnostics))
    assert rs.variants == (header.group(1),)


def _grammar() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", start="start", maybe_placeholders=True)


def _tree_names(parser: Lark, text: str) -> set[str]:
    return {str(t.data) for t in parser.parse(text).iter_subtrees()}


def test_every_grammar_rule_and_alias_has_an_example():
    """Each rule that builds a tree node (rules not inlined with `?`, and every `-> alias`)
    occurs in the parse tree of some example."""
    parser = _grammar()
    wanted = set()
    for r in parser.rules:
        name = str(r.alias or r.origin.name)
        if name.startswith("_") or (r.options.expand1 and not r.alias):
            continue
        wanted.add(name)
    seen: set[str] = set()
    for ex in EXAMPLES:
        seen |= _tree_names(parser, ex.text)
    missing = sorted(wanted - seen)
    assert not missing, f"grammar constructs with no example in docs/language.md: {missing}"


def test_every_grammar_keyword_and_operator_has_an_example():
    grammar = re.sub(r"(?m)^\s*//.*$", "", GRAMMAR.read_text(encoding="utf-8"))  # comments
    grammar = re.sub(r"/[^/\n]+/", "", grammar)  # regular expressions of terminals (NAME, STRING...)
    literals = set(re.findall(r'"([^"\s\\]+)"', grammar))
    assert {"move", "reshuffling", "=>", "++"} <= literals
    code = "\n".join(_code(e.text) for e in EXAMPLES)
    missing = []
    for lit in sorted(literals):
        if re.fullmatch(r"[a-z]+", lit):
            if not re.search(rf"\b{lit}\b", code):
                missing.append(lit)
        elif lit not in code:
            missing.append(lit)
    assert not missing, f"grammar keywords/operators with no example in docs/language.md: {missing}"


def test_every_checker_builtin_is_documented():
    from dsl.checker import BUILTINS, GEN_BUILTINS, SPECIAL_NAMES

    doc = DOC.read_text(encoding="utf-8")
    missing = [
        b for b in sorted(set(BUILTINS) | set(GEN_BUILTINS) | set(SPECIAL_NAMES)) if f"`{b}" not in doc
    ]
    assert not missing, f"built-ins or special names not documented in docs/language.md: {missing}"


CHECK_FENCE = re.compile(r"^```ludex-check[ \t]*\n(.*?)^---[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
CHECKS = [(DOC.read_text(encoding="utf-8").count("\n", 0, m.start()) + 1, m.group(1), m.group(2))
          for m in CHECK_FENCE.finditer(DOC.read_text(encoding="utf-8"))]


def test_reference_has_diagnostics_examples():
    assert len(CHECKS) >= 2, "docs/language.md lost its ```ludex-check examples"


@pytest.mark.parametrize("line,rules,expected", CHECKS, ids=[f"line {c[0]}" for c in CHECKS])
def test_diagnostics_example_is_what_ludex_check_says(line: int, rules: str, expected: str):
    """A ```ludex-check block is rule text, a `---` line, then exactly what `ludex check` prints
    for it (the file is named by the first diagnostic)."""
    path = expected.split(":", 1)[0]
    got = "\n".join(str(d) for d in dsl.check_text(rules, path))
    assert got == expected.rstrip("\n"), f"docs/language.md line {line}"


def _play(rs: dsl.Ruleset, seed: int, max_plies: int) -> Game:
    """Random legal moves until the game ends or `max_plies` moves; fails on a stuck decision."""
    g = Game.new(rs, None, None, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_plies):
        if g.terminal:
            break
        d = g.decision()
        assert not d.stuck, f"{rs.name}: the seat to act has no legal move at step '{d.step}'"
        seat = d.seats[0]
        moves = g.legal_moves(seat)
        g.apply(seat, g.pick_at_random(seat, rng.choice(moves), rng))
    return g


@pytest.mark.parametrize("ex", EXAMPLES, ids=[e.title for e in EXAMPLES])
def test_example_plays_without_error(ex: Example):
    rs = dsl.load_from_sources(ex.sources())
    for seed in range(3):
        _play(rs, seed, 60)


def test_race_example_plays_to_its_end():
    race = next(e for e in GAMES if re.match(r"\s*game race\b", e.text))
    rs = dsl.load_from_sources(race.sources())
    winners = set()
    for seed in range(20):
        g = _play(rs, seed, 500)
        assert g.terminal, f"seed {seed}: the race did not end"
        assert g.outcome["kind"] == "win" and g.outcome["reason"]
        winners |= set(g.outcome["winners"])
        replay = Game.fold(rs, g.seats, None, g.events)
        assert replay.state_hash() == g.state_hash()
    assert winners == {0, 1}


STATED = re.compile(r"^var (\w+):[^#\n]*=[^#\n]*#\s*(.+)$", re.M)


def _stated_values() -> list[tuple[Example, str, object]]:
    """Each `var NAME: T = EXPR  # VALUE ...` of a game example whose comment opens with a value
    (a number, `true`/`false`/`none`, a string or a list of them): the value the reference
    promises the variable starts with."""
    import json

    decoder = json.JSONDecoder()
    out = []
    for ex in GAMES:
        for m in STATED.finditer(ex.text):
            comment = re.sub(r"\bnone\b", "null", m.group(2))
            try:
                value, _ = decoder.raw_decode(comment)
            except ValueError:  # prose, or an elided list (`..., 2`)
                continue
            out.append((ex, m.group(1), value))
    return out


STATED_VALUES = _stated_values()


def test_reference_states_values_of_its_examples():
    # The built-ins' examples promise these: a lost comment would leave them unchecked.
    names = {name for _, name, _ in STATED_VALUES}
    assert {"where_max", "where_min", "maps", "extremes", "total", "best_three"} <= names


@pytest.mark.parametrize("ex,name,value", STATED_VALUES, ids=[f"{e.title}:{n}" for e, n, _ in STATED_VALUES])
def test_an_example_variable_starts_with_the_value_its_comment_states(ex: Example, name: str, value: object):
    g = Game.new(dsl.load_from_sources(ex.sources()), None, None, seed=1)
    assert g.view()["vars"][name] == value, f"docs/language.md line {ex.line}: var {name}"
