"""Record fresh Hanabi games from OpenSpiel (HLE's rules) in the format of hanabi_hle.py.

    python tests/oracles/hanabi_openspiel.py --games 100 [--seed 1] > fresh.jsonl
    python tests/oracles/hanabi_hle.py fresh.jsonl

Needs the dev-only `open-spiel` wheel (PyPI, Python 3.11): `pip install open-spiel==2.0.2`.
`pyspiel.load_game("hanabi", {"players": n})` wraps DeepMind's Hanabi Learning Environment;
its chance nodes deal one card at a time (player 0's whole hand first), so the deck order is
the sequence of deals, with the cards never dealt appended at the end.

Each record has the fields hanabi_hle.py reads: game_id, players, hand_size, deck,
initial_hands, steps (player, hands_before, legal, action, hint_tokens, life_tokens,
fireworks, score, deck_size, terminal), end_reason, final_score. Hands and tokens are read
from the OpenSpiel state's text, moves from its action strings ("(Play 3)",
"(Reveal player +2 rank 4)": targets are relative to the mover).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter
from typing import Any

COLOURS = "RYGWB"
FULL_DECK = Counter({f"{c}{r}": n for c in COLOURS for r, n in zip(range(1, 6), (3, 2, 2, 2, 1))})


def _parse_state(text: str) -> dict[str, Any]:
    life = int(re.search(r"Life tokens: (\d+)", text).group(1))
    info = int(re.search(r"Info tokens: (\d+)", text).group(1))
    fw = dict(re.findall(r"([RYGWB])(\d)", re.search(r"Fireworks: ([^\n]*)", text).group(1)))
    block = text.split("Hands:\n", 1)[1].split("Deck size:", 1)[0]
    hands = []
    for part in block.split("-----"):
        cards = [ln.split(" || ")[0].strip() for ln in part.strip().splitlines() if "||" in ln]
        hands.append(cards)
    deck_size = int(re.search(r"Deck size: (\d+)", text).group(1))
    return {
        "life": life,
        "info": info,
        "fireworks": {c: int(fw.get(c, 0)) for c in COLOURS},
        "hands": hands,
        "deck_size": deck_size,
    }


def _action(s: str, player: int, players: int) -> dict[str, Any]:
    s = s.strip("()")
    m = re.fullmatch(r"(Play|Discard) (\d)", s)
    if m:
        return {"type": m.group(1).lower(), "player": player, "card_index": int(m.group(2))}
    m = re.fullmatch(r"Reveal player \+(\d) (color|rank) (\w)", s)
    if not m:
        raise ValueError(f"unknown OpenSpiel Hanabi action {s!r}")
    target = (player + int(m.group(1))) % players
    if m.group(2) == "color":
        return {"type": "hint_color", "player": player, "target": target, "color": m.group(3)}
    return {"type": "hint_rank", "player": player, "target": target, "rank": int(m.group(3))}


def record_game(players: int, seed: int, care: float = 0.7, game_id: int = 0) -> dict[str, Any]:
    """Play one seeded game in OpenSpiel: random legal moves, avoiding misplays with
    probability `care` (the policy reads the true hands; it only steers towards long games)."""
    import pyspiel

    rng = random.Random(seed)
    game = pyspiel.load_game("hanabi", {"players": players, "seed": seed})
    st = game.new_initial_state()
    dealt: list[str] = []

    def settle() -> None:
        while st.is_chance_node():
            outs = st.chance_outcomes()
            a = rng.choices([o[0] for o in outs], [o[1] for o in outs])[0]
            dealt.append(st.action_to_string(a).strip("()").split()[1])
            st.apply_action(a)

    settle()
    first = _parse_state(str(st))
    steps = []
    turn = 0
    while not st.is_terminal():
        p = st.current_player()
        before = _parse_state(str(st))
        legal = [(a, _action(st.action_to_string(a), p, players)) for a in st.legal_actions()]
        choices = legal
        if rng.random() < care:
            hand, fw = before["hands"][p], before["fireworks"]
            safe = [
                (a, m)
                for a, m in legal
                if m["type"] != "play" or int(hand[m["card_index"]][1]) == fw[hand[m["card_index"]][0]] + 1
            ]
            choices = safe or legal
        a, move = choices[rng.randrange(len(choices))]
        st.apply_action(a)
        settle()
        after = _parse_state(str(st))
        steps.append(
            {
                "turn": turn,
                "player": p,
                "hands_before": before["hands"],
                "legal": [m for _, m in legal],
                "action": move,
                "hint_tokens": after["info"],
                "life_tokens": after["life"],
                "fireworks": after["fireworks"],
                "score": 0 if after["life"] == 0 else sum(after["fireworks"].values()),
                "deck_size": after["deck_size"],
                "terminal": st.is_terminal(),
            }
        )
        turn += 1
    rest = FULL_DECK - Counter(dealt)
    deck = dealt + sorted(rest.elements())
    last = steps[-1]
    end = (
        "OUT_OF_LIFE_TOKENS"
        if last["life_tokens"] == 0
        else "COMPLETED_FIREWORKS"
        if sum(last["fireworks"].values()) == 25
        else "OUT_OF_CARDS"
    )
    return {
        "game_id": game_id,
        "oracle": f"open_spiel {pyspiel.__version__ if hasattr(pyspiel, '__version__') else ''}",
        "seed": seed,
        "players": players,
        "hand_size": 5 if players <= 3 else 4,
        "deck": deck,
        "cards_dealt": len(dealt),
        "initial_hands": first["hands"],
        "actions": [s["action"] for s in steps],
        "steps": steps,
        "end_reason": end,
        "final_score": last["score"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="record fresh Hanabi games from OpenSpiel as JSONL")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args(argv)
    for i in range(a.games):
        rec = record_game(2 + i % 4, a.seed * 100_003 + i, care=(0.5, 0.9, 1.0)[i % 3], game_id=i)
        sys.stdout.write(json.dumps(rec) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
