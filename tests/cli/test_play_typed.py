"""Moves typed as text in `ludex play` (`--plain` and the full-screen typed line): unique prefixes
of the move, argument names and values; an ambiguous text names its candidates, an illegal one
the rule's reason; the board as text with no JSON. And the log's names: a card an opponent
played face up is named in the log (it stayed `hand[1]@3` before), one played face down stays
its slot."""

from __future__ import annotations

import asyncio
import random
import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from cli_helpers import ludex
from hypothesis import given, settings
from hypothesis import strategies as st

from dsl import load_from_sources, load_ruleset
from ludex.designer_commands import new_game
from ludex.play_ui import PlayApp
from ludex.typed_moves import TypedMoveError, resolve, typed_form
from runtime import Game, Move
from runtime.picks import is_offer
from runtime.sentences import value_text

PROMPT = "your move (its number, or name arg=value: prefixes do): "


def _first_turn():
    """Seat 0's first decision in `ludex play balloon_cup --seed 7`, as the command makes it."""
    g = new_game(load_ruleset("balloon_cup"), 2, {}, seed="7")
    return g, g.legal_moves(0)


def _answers(output: str) -> list[str]:
    """What the command printed on the line after each prompt (the test runner echoes the typed
    text on the prompt's line): its answer to that text."""
    lines = output.splitlines()
    return [lines[i + 1] for i, line in enumerate(lines[:-1]) if PROMPT in line]


def test_plain_play_takes_a_move_by_prefixes_and_shows_the_board_as_text():
    g, moves = _first_turn()
    m = moves[0]
    card, tile, side = m.args["card"], m.args["t"], m.args["s"]
    others = {x.args["card"] for x in moves} - {card}
    short = next(card[:k] for k in range(1, len(card) + 1) if not any(o.startswith(card[:k]) for o in others))
    done = ludex("play", "balloon_cup", "--seed", "7", "--plain", input=f"pl c={short} t={tile} s={side}\n")
    out = done.output
    assert _answers(out)[0] == f"Seat 0 places {card} on seat {side}'s side of {tile}"  # the rules' `say`
    board = out.split(PROMPT)[0]
    assert "{" not in board and '"' not in board  # no JSON
    hand = " ".join(f"[{c['colour']} {c['value']}]" for c in g.view(0)["zones"]["hand[0]"]["components"])
    assert " ".join(board.split()).count(f"hand[0] (8): {hand}") == 1  # the cards by the rules' label
    assert re.search(r"^trophy_row \(5\): ●red ●yellow ●green ●blue ●gray$", board, re.M)  # chips, not names
    assert re.search(r"^  cubes \(\d\): ●+\w+", board, re.M) and not re.search(r"\w+#\d+", board)
    assert f"  0: places {moves[0].args['card']} on seat {moves[0].args['s']}'s side of {moves[0].args['t']}" in board


def test_plain_play_names_the_candidates_of_an_ambiguous_text_and_asks_again():
    g, moves = _first_turn()
    done = ludex("play", "balloon_cup", "--seed", "7", "--plain", input="pl\n0\n")
    first, second = _answers(done.output)[:2]
    assert first.startswith(f"not played: 'pl' fits {len(moves)} moves (say card, t, s): "
                            f"places {moves[0].args['card']} on seat {moves[0].args['s']}'s side of {moves[0].args['t']}; ")
    assert first.endswith(f"and {len(moves) - 8} more")
    assert second == f"Seat 0 places {moves[0].args['card']} on seat {moves[0].args['s']}'s side of {moves[0].args['t']}"
    assert done.output.count("deck: 29 hidden") == 1  # the board is not drawn again for a refused text
    colour = moves[0].args["card"].split("-")[0]
    cards = list(dict.fromkeys(m.args["card"] for m in moves if m.args["card"].startswith(colour)))
    if len(cards) > 1:  # a value that begins several cards, in a text no move fits
        again = ludex("play", "balloon_cup", "--seed", "7", "--plain", input=f"place card={colour} s=7\n")
        assert _answers(again.output)[0] == f"not played: card={colour} is ambiguous: it could be {', '.join(cards)}"


def test_plain_play_refuses_an_illegal_text_with_the_rules_reason():
    g, moves = _first_turn()
    legal = {(m.args["card"], m.args["t"], m.args["s"]) for m in moves}
    card = moves[0].args["card"]
    tile, side = next((t, s) for t in ("tile1", "tile2", "tile3", "tile4") for s in (0, 1) if (card, t, s) not in legal)
    number = int(tile[-1])
    colour = card.split("-")[0]
    done = ludex("play", "balloon_cup", "--seed", "7", "--plain", input=f"place card={card} t={tile} s={side}\nnope\n0\n")
    refused, unknown, played = _answers(done.output)[:3]
    assert refused == (f"refused: side {side} of tile {number} needs no more {colour} cards "
                       f"(move place, balloon_cup/game.ludex:128)")
    assert unknown == "not played: there is no move 'nope' now; the moves are place"
    assert played.startswith("Seat 0 places ")  # a number still plays the move of that number


def test_typed_values_prefer_the_whole_value_and_picks_take_commas():
    moves = [Move("add", {"n": 1}), Move("add", {"n": 10}), Move("add", {"n": 12})]
    assert resolve("a n=1", moves) is moves[0]  # 1 is typed whole: not 10 or 12
    with pytest.raises(TypedMoveError, match=r"'a n=1' fits|n=1"):
        resolve("a n=1", moves[1:])  # 10 and 12 both begin with 1
    assert resolve("add n=7", moves) == {"name": "add", "args": {"n": 7}}  # for the rules to refuse, with their reason
    with pytest.raises(TypedMoveError, match="argument of add 'x'"):
        resolve("add x=1", moves)
    offer = [Move("pass", {"cs": {"pick": 2, "of": ["h-2", "s-5", "d-9"]}})]
    assert resolve("pa cs=h-2,d-9", offer) == {"name": "pass", "args": {"cs": ["h-2", "d-9"]}}
    with pytest.raises(TypedMoveError, match="pass needs cs: pick 2 of h-2, s-5, d-9"):
        resolve("pass", offer)


SECRET = """\
game secret "Secret"
seats 2
component card(value: int)
components cards = [card(v) for v in 1..6]
zone deck: card hidden ordered = cards "the deck"
zone hand: per seat card owner = [] "a hand, seen by its owner"
zone table: card public = [] "cards shown"
zone pile: card hidden = [] "cards buried, seen by nobody"
setup "deal three each" {
  shuffle deck
  for s in seats { draw 3 from deck to hand[s] }
  turn 0
}
step go "play a card" then end turn
move show(c in hand[actor]) during go "face up" { move c to table }
move bury(c in hand[actor]) during go "face down" { move c to pile }
trigger done when size(table) + size(pile) >= 6 "all cards played" { end game draw "all played" }
"""


def test_the_log_names_an_opponents_card_once_it_is_face_up_and_not_when_it_is_buried():
    g = Game.new(load_from_sources((("secret.ludex", SECRET),)), seed="9")
    answers = iter(["show", "bury"])

    def other(game, seat, moves):  # seat 1 shows its first card, then buries its second
        name = next(answers)
        return next(m for m in moves if m.name == name)

    async def run() -> list[str]:
        app = PlayApp(g, 0, other)
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.press("enter")  # seat 0 plays its first listed move; seat 1 shows a card
            await pilot.press("enter")  # and again; seat 1 buries one
            await pilot.pause()
            assert not g.terminal  # over, the whole log would be told
            return [str(line.text) for line in app.query_one("#log").lines]

    with ThreadPoolExecutor(1) as pool:
        log = pool.submit(asyncio.run, run()).result()
    shown = next(e for e in g.events if e.kind == "move" and e.move == "show" and e.seat == 1)
    buried = next(e for e in g.events if e.kind == "move" and e.move == "bury" and e.seat == 1)
    assert 0 in shown.hidden_from["c"] and 0 in buried.hidden_from["c"]  # both were hidden from seat 0 when chosen
    assert any(line.startswith(f"{shown.ply}: Seat 1: show (c {shown.args['c']})") for line in log), log
    assert any(line.startswith(f"{buried.ply}: Seat 1: bury (c a hidden component at hand[1]@") for line in log), log
    assert not any(f"(c {buried.args['c']})" in line for line in log), log


def test_a_pick_chosen_in_the_list_is_finished_in_the_typed_line():
    """Enter on a move that picks several cards (`cs in 3 of hand[actor]`) puts it in the typed
    line with its candidates named; the picks typed there, with commas, play it."""
    from pathlib import Path

    rules = load_ruleset(str(Path(__file__).parents[1] / "simultaneous" / "hearts_mini.ludex"))
    g = Game.new(rules, 4, seed="picks")
    hand = [c["name"] for c in g.view(0)["zones"]["hand[0]"]["components"]]
    played: list = []

    def other(game, seat, moves):
        return {"name": moves[0].name, "args": {"cs": moves[0].args["cs"]["of"][:3]}}

    async def run() -> tuple[str, str]:
        app = PlayApp(g, 0, other, lambda s, m: played.append((s, m)))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("enter")
            typed = app.query_one("#typed").value
            said = str(app.query_one("#message").content)
            await pilot.press(*",".join(hand[:3]), "enter")
            await pilot.pause()
            assert str(app.query_one("#message").content) == "", app.query_one("#typed").value
            return typed, said

    with ThreadPoolExecutor(1) as pool:
        typed, said = pool.submit(asyncio.run, run()).result()
    assert typed == "pass_cards  cs="
    assert said == f"cs: pick 3 of {', '.join(hand)}, separated by commas"
    assert (0, {"name": "pass_cards", "args": {"cs": hand[:3]}}) in played


def _random_position(ruleset: str, seed: int, plies: int) -> tuple[Game, list[Move]] | None:
    """A bundled game after `plies` random moves, and the legal moves of the seat to act; None
    when it ended."""
    rules = load_ruleset(ruleset)
    g = Game.new(rules, rules.seats[0], seed=str(seed))
    rng = random.Random(seed)
    for _ in range(plies):
        if g.terminal:
            return None
        actor = g.decision().seats[0]
        g.apply(actor, g.pick_at_random(actor, rng.choice(g.legal_moves(actor)), rng))
    return None if g.terminal else (g, g.legal_moves(g.decision().seats[0]))


@pytest.mark.parametrize("ruleset", ["balloon_cup", "battle_line", "hanabi", "weather_machine"])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 40))
def test_every_listed_move_typed_in_full_or_by_prefixes_is_that_move(ruleset, seed, plies):
    """At random positions of every bundled game, each legal move typed as `name k=v ...` is that
    move, and so is the text with every name cut to its shortest unique prefix."""
    position = _random_position(ruleset, seed, plies)
    if position is None:
        return
    moves = [m for m in position[1] if not any(is_offer(v) for v in m.args.values())]
    names = list(dict.fromkeys(m.name for m in moves))

    def shortest(word: str, among: list[str]) -> str:
        return next(word[:k] for k in range(1, len(word) + 1)
                    if word[:k] == word or not any(o != word and o.startswith(word[:k]) for o in among))

    for m in moves:
        full = " ".join([m.name, *(f"{k}={value_text(v)}" for k, v in m.args.items())])
        assert resolve(full, moves) == m, full
        keys = list(dict.fromkeys(k for x in moves if x.name == m.name for k in x.args))
        short = " ".join([shortest(m.name, names), *(f"{shortest(k, keys)}={value_text(v)}" for k, v in m.args.items())])
        assert resolve(short, moves) == m, short


@pytest.mark.parametrize("ruleset", ["balloon_cup", "battle_line", "hanabi", "weather_machine"])
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 40))
def test_the_typed_form_listed_beside_each_move_is_that_move(ruleset, seed, plies):
    """At random positions of every bundled game, the text `--plain` lists beside each legal move
    is read back by the typed-move parser as that very move (a pick's `<N, commas>` typed as its
    first N candidates is that move with those picked), and no argument in it could be left out."""
    position = _random_position(ruleset, seed, plies)
    if position is None:
        return
    _, moves = position
    for m in moves:
        shown = typed_form(m, moves)
        picks = {k: v["of"][: v["pick"]] for k, v in m.args.items() if is_offer(v)}
        text = re.sub(r"(\w+)=<\d+, commas>", lambda x: f"{x[1]}=" + ",".join(map(value_text, picks[x[1]])), shown)
        got = resolve(text, moves)
        if picks:
            assert got == {"name": m.name, "args": {**m.args, **picks}}, shown
        else:
            assert got is m, shown
        name, *pairs = shown.split()
        assert name == m.name
        for pair in pairs:  # each argument shown is needed: without it the text names another move or none
            if pair.split("=")[0] in picks:
                continue
            rest = " ".join([name, *(p for p in text.split()[1:] if p.split("=")[0] != pair.split("=")[0])])
            try:
                assert resolve(rest, moves) is not m, (shown, rest)
            except TypedMoveError:
                pass


def test_the_typed_form_of_a_pick_names_its_count_and_reads_back_with_candidates():
    from pathlib import Path

    rules = load_ruleset(str(Path(__file__).parents[1] / "simultaneous" / "hearts_mini.ludex"))
    g = Game.new(rules, 4, seed="picks")
    moves = g.legal_moves(0)
    shown = [typed_form(m, moves) for m in moves]
    assert shown == ["pass_cards cs=<3, commas>"]
    hand = moves[0].args["cs"]["of"]
    typed = shown[0].replace("<3, commas>", ",".join(value_text(c) for c in hand[-3:]))
    assert resolve(typed, moves) == {"name": "pass_cards", "args": {"cs": hand[-3:]}}


def test_plain_play_lists_beside_each_move_what_to_type_for_it_within_80_columns():
    g, moves = _first_turn()
    done = ludex("play", "balloon_cup", "--seed", "7", "--plain", input="0\n")
    listing = done.output.split(PROMPT)[0].split("variables:")[1].splitlines()[1:]
    assert all(len(line) <= 80 for line in listing)
    joined = " ".join(" ".join(listing).split())
    for i, m in enumerate(moves):
        sentence = f"{i}: places {m.args['card']} on seat {m.args['s']}'s side of {m.args['t']}"
        assert f"{sentence} [{typed_form(m, moves)}]" in joined
    cards = [m.args["card"] for m in moves]
    once = next(m for m in moves if cards.count(m.args["card"]) == 2)  # one card, one tile: its tile need not be said
    assert typed_form(once, moves) == f"place card={once.args['card']} s={once.args['s']}"
    assert "place card=yellow-12 t=tile1 s=0" in [typed_form(m, moves) for m in moves]
