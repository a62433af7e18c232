"""The fixed action numbering: derived from the IR, the same from bound values as from the
moves a client writes, a bijection with the legal moves, and clear about what it refuses."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")

from rl_cases import KUHN, case_id, cases, positions, random_plies  # noqa: E402

from dsl import load_from_sources  # noqa: E402
from ludex.rl import actions  # noqa: E402
from ludex.rl.actions import ActionSpaceTooSmall, ActionTable, Components, Ordinal, Values  # noqa: E402
from ludex.rl.spec import Spec  # noqa: E402
from runtime import Game, IllegalMove, Move  # noqa: E402


def test_hanabi_numbering_follows_the_declarations():
    t = Spec("hanabi", 2).table
    assert [(b["move"], b["offset"], b["size"]) for b in t.layout()] == [
        ("hint_colour", 0, 10), ("hint_rank", 10, 10), ("discard", 20, 50), ("play", 70, 50)]
    hint = t.blocks[0]
    assert hint.universes == (Values((0, 1)), Values(("red", "yellow", "green", "white", "blue")))
    # a card in one's own hand, held facing away, is chosen by its place
    assert t.blocks[3].universes == (Components((), 50),)
    assert t.describe(7) == 'hint_colour(target=1, colour="green")'  # 1 * 5 + 2
    assert t.describe(72) == "play(k=@2)"
    assert t.n == 120


def test_a_static_where_filter_narrows_the_components():
    t = Spec("battle_line").table
    scout = t.by_name["play_scout"].universes[0]
    assert scout == Components(("scout",), 0)  # `where it is tactic and .tname == scout`
    troops = t.by_name["play_troop"].universes[0]
    assert len(troops.names) == 60 and troops.slots == 0  # one's own hand: seen, so by name


@pytest.mark.parametrize("ruleset, seats", [("hanabi", 3), ("battle_line", 2), ("balloon_cup", 2), ("weather_machine", 2)])
def test_numbers_from_bound_values_equal_numbers_from_written_moves(ruleset, seats):
    spec = Spec(ruleset, seats)
    t = spec.table
    for g in positions(spec, 60, seed=5):
        seat = g.st.actor
        fast = t.legal(g, seat)
        t.forget()
        slow = t._legal_slow(g.legal_moves(seat))
        assert list(fast) == slow
        moves = g.legal_moves(seat)
        assert sorted(fast.values()) == list(range(len(moves)))  # one action per legal move
        for a, i in list(fast.items())[:8]:
            m = t.to_move(g, seat, a)
            assert m == moves[i]
            assert t.to_action(g, seat, m.to_dict()) == a  # both ways, from the JSON a client sends


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_the_mask_after_every_ply_is_the_legal_moves_as_a_client_writes_them(case):
    """The mask an environment hands out (numbered from the listing's bound values, the
    numbers kept for the state version) against the mask numbered afresh from each legal
    move's JSON arguments, after every ply of random games; each action steps to its own move."""
    name, variants, seats = case
    spec = Spec(name, seats, variants)
    t = spec.table
    rng = random.Random(3)
    for g, seat in random_plies(spec, 3, 150, rng):
        moves = g.legal_moves(seat)
        written = [Move.from_dict(m.to_dict()) for m in moves]
        fresh = t._legal_slow(written)
        want = np.zeros(t.n, np.int8)
        want[fresh] = 1
        assert len(set(fresh)) == len(moves)
        mask = t.mask(g, seat)
        assert np.array_equal(mask, want)
        assert t.actions(g, seat) == fresh
        mask[:] = 1  # the caller's array: the next mask is untouched
        assert np.array_equal(t.mask(g, seat), want)
        other = (seat + 1) % spec.seats
        if other != seat and g.st.sim is None:
            assert not t.mask(g, other).any()  # not its decision: nothing legal
        i = rng.randrange(len(moves))
        assert t.to_move(g, seat, fresh[i]) == written[i]



@pytest.mark.parametrize("recognising", [True, False], ids=["recognising", "not-recognising"])
@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_games_numbered_in_turn_by_tables_of_one_numbering_number_as_afresh(case, recognising, monkeypatch):
    """Three random games played ply by ply in turn, each listing numbered by one of two tables
    of the same numbering (as the environments of a vector share it: the second is made from
    another game): the numbers found from the listing's bound values by each move's tables
    (components by id, entities by position, constants by value, a hidden hand by place) are
    those of the legal moves written out and numbered afresh, at every ply of every
    bundled ruleset, variant and seat count."""
    name, variants, seats = case
    monkeypatch.setattr(actions, "_SHARED", {})  # (a numbering of its own: no earlier test's verdict)
    monkeypatch.setattr(actions, "_WINDOW", 10**9)  # (recognising, where it is on, stays on)
    spec = Spec(name, seats, variants)
    tables = [spec.table, ActionTable(spec.new_game(seed=99))]
    assert tables[1]._numberers is tables[0]._numberers  # one numbering: its functions shared
    tables[0]._recalls[0] = recognising
    rng = random.Random(6)
    games = [spec.new_game(seed=k) for k in range(3)]
    plies = 0
    for ply in range(100):
        for k, g in enumerate(games):
            if g.terminal or g.decision().stuck:
                continue
            seat = g.decision().seats[0]
            t = tables[(ply + k) % 2]
            moves = g.legal_moves(seat)
            assert t.actions(g, seat) == t._legal_slow([Move.from_dict(m.to_dict()) for m in moves])
            g.apply(seat, moves[rng.randrange(len(moves))])
            plies += 1
    assert plies > 20



def test_a_state_whose_components_are_not_the_tables_is_numbered_from_its_moves(monkeypatch):
    """The tables number a component by its id as the table's own game named it; a state whose
    components are named otherwise by id (here: the names the tables check against reversed,
    as if another build of the components) is numbered from its moves written out, not from
    the tables."""
    monkeypatch.setattr(actions, "_SHARED", {})  # (a numbering of its own, changed below)
    spec = Spec("battle_line", 2)
    t = ActionTable(spec.new_game(seed=0))
    t._names[0].reverse()
    t._recalls[0] = False  # (a listing recognised takes the numbers found before: not what is tested here)
    slow = t._legal_slow
    calls = []
    monkeypatch.setattr(t, "_legal_slow", lambda moves: calls.append(1) or slow(moves))
    rng = random.Random(2)
    g = spec.new_game(seed=1)
    for ply in range(40):
        seat = g.decision().seats[0]
        moves = g.legal_moves(seat)
        t.forget()
        assert t.actions(g, seat) == slow([Move.from_dict(m.to_dict()) for m in moves])
        assert len(calls) == ply + 1  # numbered from its moves, not by the tables
        g.apply(seat, moves[rng.randrange(len(moves))])
    assert t._comps is None  # never taken as the tables'


INT_AND_BOOL = """game int_and_bool "a constant domain holding an int and the bool equal to it"
seats 2
var count: int = 0
setup { turn 0 }
step act then end turn
move pick(x in [0, 1, true]) during act {
  count += 1
  if count >= 4 { end game draw "done" }
}
"""


def test_an_int_and_the_bool_equal_to_it_are_two_actions():
    # True == 1 (and hash alike) in Python: a universe built by value would merge them
    spec = Spec(load_from_sources((("int_and_bool.ludex", INT_AND_BOOL),)), 2)
    assert spec.table.layout()[0]["args"][0]["labels"] == ["0", "1", "true"]
    g = spec.new_game(seed=0)
    moves = g.legal_moves(0)
    assert spec.table.actions(g, 0) == spec.table._legal_slow(moves) == [0, 1, 2]
    assert [spec.table.to_move(g, 0, a).args["x"] for a in (0, 1, 2)] == [0, 1, True]


ENTITIES_REMOVED = """game entities_removed "an entity set that play narrows"
seats 2
entity tile(number: int) { var visits: int = 0 }
entities tiles = [tile(1), tile(2), tile(3)]
var count: int = 0
setup { turn 0 }
step act then end turn
move visit(t in tiles) during act {
  t.visits += 1
  if t.visits >= 2 { remove t }
  count += 1
  if count >= 9 { end game draw "done" }
}
"""


def test_a_table_made_after_play_removed_an_entity_numbers_as_one_made_before(monkeypatch):
    monkeypatch.setattr(actions, "_SHARED", {})
    spec = Spec(load_from_sources((("entities_removed.ludex", ENTITIES_REMOVED),)), 2)
    g = spec.new_game(seed=0)
    for _ in range(2):  # tile 1 visited twice: removed
        g.apply(g.decision().seats[0], g.legal_moves(g.decision().seats[0])[0])
    assert not all(g.st.ent_alive)
    late = ActionTable(g)
    assert (late.n, late.version, late.layout()) == (spec.table.n, spec.table.version, spec.table.layout())
    seat = g.decision().seats[0]
    assert late.actions(g, seat) == spec.table.actions(g, seat) == late._legal_slow(g.legal_moves(seat)) == [1, 2]


def test_an_illegal_action_names_the_move_it_stands_for():
    spec = Spec(KUHN)
    g = spec.new_game(seed=1)
    t = spec.table
    bet = t.to_action(g, 0, {"name": "bet", "args": {}})
    with pytest.raises(IllegalMove, match=r"bet\(\) is not legal for seat 1 now"):
        t.to_move(g, 1, bet)
    with pytest.raises(ValueError, match="outside this ruleset's actions 0..1"):
        t.describe(5)


CHOOSE = """
game choose
seats 2
var picked: int = 0
fn options() -> list<int> = [x * 10 for x in 1..5]
step pick then end turn
move take(v in options()) during pick { picked = v  end game win 0 "done" }
"""


def test_a_computed_domain_is_numbered_by_legal_choice_and_a_small_cap_says_so():
    rs = load_from_sources((("choose.ludex", CHOOSE),))
    g = Game.new(rs, 2, seed=1)
    t = ActionTable(g)
    assert t.blocks[0].universes == (Ordinal(32),)
    assert sorted(t.legal(g, 0)) == [0, 1, 2, 3, 4]
    assert t.to_move(g, 0, 3).args == {"v": 40}
    with pytest.raises(ActionSpaceTooSmall, match=r"move 'take' has more than 2 legal choices of 'v' here; raise ordinal_cap"):
        ActionTable(g, ordinal_cap=2).legal(g, 0)


def test_the_version_names_the_rules_seats_and_options():
    a, b = Spec("hanabi", 2).table, Spec("hanabi", 3).table
    c = Spec("hanabi", 2, options={"empty_hints": False}).table
    assert len({a.version, b.version, c.version}) == 3
    assert a.version.startswith(Spec("hanabi", 2).rs.content_hash[:16])


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_applying_an_action_plays_the_move_it_stands_for(case):
    """`table.apply` (the listed binding applied, no move made) against `Game.apply` of the
    listed move, in two games played side by side: the same events and states after every
    ply; an illegal action raises and changes nothing."""
    name, variants, seats = case
    spec = Spec(name, seats, variants)
    t = spec.table
    rng = random.Random(5)
    for k in range(2):
        mine, theirs = spec.new_game(seed=k), spec.new_game(seed=k)
        for _ply in range(120):
            if mine.terminal or mine.decision().stuck:
                break
            seat = mine.decision().seats[0]
            acts = t.actions(mine, seat)
            i = rng.randrange(len(acts))
            if _ply % 7 == 3:  # not legal now: refused, the game unchanged
                before = mine.state_hash()
                illegal = next(a for a in range(t.n) if a not in acts)
                with pytest.raises(IllegalMove):
                    t.apply(mine, seat, illegal)
                assert mine.state_hash() == before
            t.apply(mine, seat, np.int64(acts[i]))  # (as a learner's array hands it)
            theirs.apply(seat, theirs.legal_moves(seat)[i])
            assert mine.events == theirs.events
            assert mine.state_hash() == theirs.state_hash()


RPS = str(Path(__file__).parents[2] / "docs" / "examples" / "rock_paper_scissors.ludex")


def test_at_a_simultaneous_step_each_seat_of_the_round_has_its_actions():
    """Every seat of an open round has its own legal actions; applying one seals that seat's
    choice, as `Game.apply` of the listed move does."""
    spec = Spec(RPS, 2)
    t = spec.table
    rng = random.Random(2)
    mine, theirs = spec.new_game(seed=1), spec.new_game(seed=1)
    while not mine.terminal:
        seats = mine.decision().seats
        assert mine.st.sim is not None
        for s in seats:
            assert [t.to_move(mine, s, a) for a in t.actions(mine, s)] == mine.legal_moves(s)
            assert sorted(np.flatnonzero(t.mask(mine, s))) == sorted(t.actions(mine, s))  # the agent's view of them
        seat = seats[rng.randrange(len(seats))]
        acts = t.actions(mine, seat)
        i = rng.randrange(len(acts))
        t.apply(mine, seat, acts[i])
        theirs.apply(seat, theirs.legal_moves(seat)[i])
        assert mine.events == theirs.events
    assert len(mine.events) > 6


def test_what_numberings_remember_is_kept_for_the_ones_used_last(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludex.rl import actions

    monkeypatch.setattr(actions, "_SHARED", {})
    g = Spec("hanabi", 2).new_game(seed=1)
    first = ActionTable(g, ordinal_cap=1)._masks
    second = ActionTable(g, ordinal_cap=2)._masks
    for cap in range(3, 3 + actions._SHARED_MAX - 1):  # as many numberings more as are kept
        ActionTable(g, ordinal_cap=cap)
        assert ActionTable(g, ordinal_cap=1)._masks is first  # used again: kept, the newest again
    assert len(actions._SHARED) == actions._SHARED_MAX
    assert ActionTable(g, ordinal_cap=1)._masks is first
    assert ActionTable(g, ordinal_cap=2)._masks is not second  # the least recently used went: made again

def _held_cards(name: str, copies: int, dealt: int, moves: str) -> str:
    """A two-seat game of ranked cards, each hand seen by everyone but its owner (so the owner's
    cards are numbered by their place in the hand), `dealt` cards each, then `moves`."""
    return f"""
game {name} "held cards"
seats 2

component card(rank: int)
components cards = [card(r) for r in 1..4 for k in 1..{copies}]

zone deck: card hidden ordered = cards
zone hand: per seat card others ordered = []
zone pile: card public ordered = []

setup {{
  shuffle deck
  for s in seats {{ draw {dealt} from deck to hand[s] }}
  turn 0
}}

step act then end turn
{moves}"""


HELD = _held_cards("held", 3, 3, """
move play(c in hand[actor]) during act {
  move c to pile
  if len(deck) == 0 { end game draw "the deck ran out" }
  else { draw 1 from deck to hand[actor] }
}

move toss(c in hand[actor]) during act
  require c.rank > 2 else "a high card only"
{
  move c to pile
  if len(deck) == 0 { end game draw "the deck ran out" }
  else { draw 1 from deck to hand[actor] }
}
""")

# Listings that recur with a change a recognised listing must notice: hands whose sizes vary
# under a filtered move (a card's number is its place in the hand, so `toss` of the same few
# cards is numbered anew when the hand grew), and a constant argument whose one legal value
# changes (`wait`: as many moves, another number).
SHIFTING = _held_cards("shifting", 5, 2, """
move toss(c in hand[actor] where .rank > 2) during act { move c to pile }
move more() during act
  require len(deck) > 0 else "the deck ran out"
{ draw 1 from deck to hand[actor] }
move wait(n in 1..4) during act
  require n == len(pile) % 4 + 1 else "not that number now"
{ }
""")


@pytest.mark.parametrize("text", [HELD, SHIFTING], ids=["held", "shifting"])
def test_a_listing_met_again_is_numbered_as_afresh(monkeypatch, text: str):
    """Each seat's listings recur (the same moves, as many of each, a held hand of the same
    size): the numbers found again are those of the moves written out, by place in the hand,
    where a run of the hand filtered by its cards' ranks (`toss`) is not its whole contents,
    and where hand sizes, the pile and the deck change between listings that look alike.
    Recognising is kept on (no window judges it unprofitable) and is seen to happen."""
    monkeypatch.setattr(actions, "_WINDOW", 10**9)
    rs = load_from_sources((("held.ludex", text),))
    rng = random.Random(4)
    g0 = Game.new(rs, 2, seed=0)
    t = ActionTable(g0)
    plies = 0
    for k in range(30):
        g = Game.new(rs, 2, seed=k)
        for _ in range(80):  # (the shifting game has no end: it stops when no move is left)
            if g.terminal or not g.decision().seats or not (moves := g.legal_moves(g.decision().seats[0])):
                break
            seat = g.decision().seats[0]
            fresh = t._legal_slow([Move.from_dict(m.to_dict()) for m in moves])
            assert t.actions(g, seat) == fresh
            want = np.zeros(t.n, np.int8)
            want[fresh] = 1
            assert np.array_equal(t.mask(g, seat), want)
            g.apply(seat, moves[rng.randrange(len(moves))])
            plies += 1
    assert plies > 200 and t._found > 20  # listings were recognised, and each was checked
