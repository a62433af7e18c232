"""Replay Hanabi games recorded from DeepMind's Hanabi Learning Environment through Ludex.

    python tests/oracles/hanabi_hle.py FILE.jsonl [--variant official] [--quiet]

Each line of FILE.jsonl is one recorded game (format: shared/oracles/hanabi/README.md).
The game is created under the `hanabi` ruleset with the `official` variant (empty hints
forbidden, as in HLE) and the recorded deck as the outcome of the setup shuffle, then every
recorded move is applied. At every step the script compares:

- the legal moves before the move (exactly equal under `official`; under other variants
  the oracle's set must be a subset and the extras only the hints that touch no card),
- the hands before the move, the hint tokens, fuse (life) tokens, fireworks and score after
  it, and whether the game is over.

It prints how many games and steps agree and the first disagreement, and exits 1 when any
game disagrees. The mapping from HLE's conventions lives here, not in the engine:

- HLE deals player 0 `deck[0:h]`, player 1 `deck[h:2h]`, ...; the ruleset's setup deals
  each seat its whole hand from the top, seat 0 first, so the recorded deck order is the
  shuffle's outcome as it is.
- HLE's `card_index` 0 is the oldest card, removal shifts, a draw is appended: the
  ruleset's hands keep the same order, so `card_index` i is Ludex's slot `hand[p]@i`.
- HLE's cards `R1`..`B5` become component names `red-1`, `red-1#2`, ... (the k-th copy of
  a card in deck order gets the k-th name; copies are interchangeable).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from dsl import load_ruleset  # noqa: E402
from runtime import Game  # noqa: E402

COLOURS = {"R": "red", "Y": "yellow", "G": "green", "W": "white", "B": "blue"}
LETTERS = {v: k for k, v in COLOURS.items()}


def deck_names(deck: list[str]) -> list[str]:
    """HLE cards (`"R1"`) in deck order as Ludex component names (`red-1`, `red-1#2`, ...)."""
    seen: Counter[str] = Counter()
    out = []
    for card in deck:
        base = f"{COLOURS[card[0]]}-{card[1:]}"
        seen[base] += 1
        out.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    return out


def card_code(name: str) -> str:
    """A Ludex component name (`red-1#2`) as an HLE card (`R1`)."""
    colour, rank = name.split("#")[0].split("-")
    return LETTERS[colour] + rank


def to_ludex(action: dict[str, Any]) -> dict[str, Any]:
    """An HLE move as a Ludex move of the acting seat."""
    t, p = action["type"], action["player"]
    if t in ("play", "discard"):
        return {"name": t, "args": {"k": f"hand[{p}]@{action['card_index']}"}}
    if t == "hint_color":
        return {
            "name": "hint_colour",
            "args": {"target": action["target"], "colour": COLOURS[action["color"]]},
        }
    if t == "hint_rank":
        return {"name": "hint_rank", "args": {"target": action["target"], "rank": action["rank"]}}
    raise ValueError(f"unknown HLE move type {t!r}")


def from_ludex(move: Any, seat: int) -> tuple:
    """A Ludex legal move as a hashable HLE-style key."""
    a = move.args
    if move.name in ("play", "discard"):
        return (move.name, seat, int(a["k"].rsplit("@", 1)[1]))
    if move.name == "hint_colour":
        return ("hint_color", seat, a["target"], LETTERS[a["colour"]])
    if move.name == "hint_rank":
        return ("hint_rank", seat, a["target"], a["rank"])
    return (move.name, seat, json.dumps(a, sort_keys=True))


def key_of(action: dict[str, Any]) -> tuple:
    t, p = action["type"], action["player"]
    if t in ("play", "discard"):
        return (t, p, action["card_index"])
    if t == "hint_color":
        return (t, p, action["target"], action["color"])
    return (t, p, action["target"], action["rank"])


def _fireworks(g: Game) -> dict[str, int]:
    heights = {letter: 0 for letter in COLOURS}
    for c in g.st.zones[g.st.g["fireworks"].idx]:
        heights[LETTERS[c.d["colour"]]] += 1
    return heights


def _hands(g: Game) -> list[list[str]]:
    return [[card_code(c.name) for c in g.st.zones[z.idx]] for z in g.st.g["hand"]]


def _is_empty_hint(g: Game, key: tuple) -> bool:
    if key[0] == "hint_color":
        return not any(c.d["colour"] == COLOURS[key[3]] for c in g.st.zones[g.st.g["hand"][key[2]].idx])
    if key[0] == "hint_rank":
        return not any(c.d["rank"] == key[3] for c in g.st.zones[g.st.g["hand"][key[2]].idx])
    return False


def replay_game(rec: dict[str, Any], rs: Any, exact: bool) -> tuple[int, str | None]:
    """Replay one recorded game. Returns (steps that agree, first disagreement or None)."""
    gid = rec.get("game_id")
    names = deck_names(rec["deck"])
    g = Game.new(rs, rec["players"], seed=0, outcomes=[names])

    def where(i: int) -> str:
        return f"game {gid} ({rec['players']} players), turn {i}"

    if _hands(g) != rec["initial_hands"]:
        return 0, f"game {gid}: initial hands differ: ludex {_hands(g)} vs oracle {rec['initial_hands']}"
    for i, step in enumerate(rec["steps"]):
        p = step["player"]
        if g.terminal:
            return i, f"{where(i)}: ludex ended the game ({g.outcome['reason']}) but the oracle plays on"
        if g.decision().seats != (p,):
            return i, f"{where(i)}: ludex has seat {g.decision().seats} to act, the oracle player {p}"
        if _hands(g) != step["hands_before"]:
            return i, f"{where(i)}: hands differ: ludex {_hands(g)} vs oracle {step['hands_before']}"
        mine = {from_ludex(m, p) for m in g.legal_moves(p)}
        theirs = {key_of(a) for a in step["legal"]}
        missing = theirs - mine
        extra = mine - theirs
        if not exact:
            extra = {k for k in extra if not _is_empty_hint(g, k)}
        if missing or extra:
            return (
                i,
                f"{where(i)}: legal moves differ: only oracle {sorted(missing, key=str)}, only ludex {sorted(extra, key=str)}",
            )
        g.apply(p, to_ludex(step["action"]))
        got = {
            "hint_tokens": g.st.g["tokens"],
            "life_tokens": g.st.g["fuses"],
            "fireworks": _fireworks(g),
            "score": g.outcome["scores"]["team"] if g.terminal else sum(_fireworks(g).values()),
            "deck_size": len(g.st.zones[g.st.g["deck"].idx]),
            "terminal": g.terminal,
        }
        if not g.terminal and g.st.g["fuses"] == 0:
            got["score"] = 0
        want = {k: step[k] for k in got}
        if got != want:
            diff = {k: (got[k], want[k]) for k in got if got[k] != want[k]}
            return i, f"{where(i)}: after {step['action']}: (ludex, oracle) {diff}"
    if not g.terminal:
        return len(rec["steps"]), f"game {gid}: the oracle ended ({rec['end_reason']}) but ludex plays on"
    if g.outcome["scores"]["team"] != rec["final_score"]:
        return len(
            rec["steps"]
        ), f"game {gid}: final score ludex {g.outcome['scores']['team']} vs oracle {rec['final_score']}"
    return len(rec["steps"]), None


def run(path: str | Path, variants: tuple[str, ...] = ("official",), quiet: bool = False) -> dict[str, Any]:
    """Replay every game of a JSONL file; returns counts and the first disagreement."""
    rs = load_ruleset("hanabi", variants)
    exact = "official" in variants
    games = agree = steps = steps_ok = 0
    first = None
    with open(path) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            games += 1
            steps += len(rec["steps"])
            ok, problem = replay_game(rec, rs, exact)
            steps_ok += ok
            if problem is None:
                agree += 1
            elif first is None:
                first = problem
            if problem and not quiet:
                print(f"DISAGREE {problem}")
    return {
        "games": games,
        "games_agree": agree,
        "steps": steps,
        "steps_agree": steps_ok,
        "first_disagreement": first,
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file", help="JSONL file of recorded HLE games")
    ap.add_argument("--variant", "-v", action="append", help="Ludex variant(s) to apply (default: official)")
    ap.add_argument("--quiet", "-q", action="store_true", help="print only the summary")
    a = ap.parse_args(argv)
    variants = tuple(a.variant) if a.variant else ("official",)
    r = run(a.file, variants, a.quiet)
    print(f"games agreeing: {r['games_agree']}/{r['games']}; steps agreeing: {r['steps_agree']}/{r['steps']}")
    print(f"first disagreement: {r['first_disagreement'] or 'none'}")
    return 0 if r["games_agree"] == r["games"] else 1


if __name__ == "__main__":
    sys.exit(main())
