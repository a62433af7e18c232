"""Where chance outcomes come from (runtime/chance.py): the seed's draws are the standard
library's (`random.Random(seed).shuffle` / `.randrange`, the reference a referee recomputes
with), given outcomes are checked against the node they are labelled for and against the seed
when verifying, and strict outcomes must be used up exactly. Every message is the one a
designer or a referee reads."""

from __future__ import annotations

import random

import pytest

from runtime.chance import ChanceNode, ChanceSource, Given, ImpossibleOutcome, OutcomeNeeded

SHUFFLE = ChanceNode("shuffle", "deck", "deck", "setup", "toy.ludex:4")
DRAW = ChanceNode("draw", "hand[0]", "bag", "move pull", "toy.ludex:9")
NAMES = ["a", "b", "c", "d", "e", "f", "g"]


def _reference_shuffle(seed, names):
    rng = random.Random(seed)
    out = list(names)
    rng.shuffle(out)
    return out, rng.random()


@pytest.mark.parametrize("n", [0, 1, 2, 3, 7, 8, 9, 16, 17, 52, 100])
def test_a_seeded_shuffle_is_the_standard_librarys(n):
    names = [f"c{i}" for i in range(n)]
    source = ChanceSource(f"seed-{n}")
    assert (source.shuffle(names, SHUFFLE, 0), source.rng.random()) == _reference_shuffle(f"seed-{n}", names)


def test_a_seeded_draw_is_the_standard_librarys():
    source = ChanceSource(11)
    rng = random.Random(11)
    for _ in range(5):
        assert source.pick(NAMES, DRAW, 0) == [NAMES[rng.randrange(len(NAMES))]]
    assert ChanceSource(None).pick(NAMES, DRAW, 0) == [NAMES[random.Random(0).randrange(7)]]  # no seed: seed 0


def test_given_outcomes_come_first_then_the_seed():
    source = ChanceSource(5, given=[["g", "f", "e", "d", "c", "b", "a"], {"outcome": ["c"], "node": "draw"}])
    assert not source.free and source.seed is None  # the stream no longer follows the seed alone
    assert source.shuffle(NAMES, SHUFFLE, 0) == ["g", "f", "e", "d", "c", "b", "a"]
    assert source.pick(NAMES, DRAW, 1) == ["c"]
    assert source.used == 2 and source.free
    assert source.pick(NAMES, DRAW, 2) == [NAMES[random.Random(5).randrange(7)]]


def test_a_draw_given_with_put_backs():
    source = ChanceSource(None, given=[["a", "b", "c"]])
    assert source.pick(["c", "d"], DRAW, 3, rejected=["a", "b"]) == ["a", "b", "c"]
    for given, rejected, message in (
        (["a", "c"], [], "event 3: ['a', 'c'] cannot be drawn from bag now (possible: c, d)"),
        (["a", "c"], ["b"], "event 3: ['a', 'c'] cannot be drawn from bag now (possible: c, d, after any put back of b)"),
        (["e"], [], "event 3: ['e'] cannot be drawn from bag now (possible: c, d)"),
        ([], [], "event 3: [] cannot be drawn from bag now (possible: c, d)"),
    ):
        with pytest.raises(ImpossibleOutcome) as info:
            ChanceSource(None, given=[given]).pick(["c", "d"], DRAW, 3, rejected=rejected)
        assert str(info.value) == message and info.value.ply == 3


def test_a_given_shuffle_must_be_a_permutation():
    with pytest.raises(ImpossibleOutcome) as info:
        ChanceSource(None, given=[["a", "a", "b"]]).shuffle(["a", "b", "c"], SHUFFLE, 4)
    assert str(info.value) == "event 4: the given order of deck is not a permutation of its 3 components"
    with pytest.raises(ImpossibleOutcome):
        ChanceSource(None, given=[["a", "b"]]).shuffle(["a", "b", "c"], SHUFFLE, 4)


def test_verifying_checks_each_given_outcome_against_the_seed():
    order, _ = _reference_shuffle("s", NAMES)
    source = ChanceSource("s", given=[order], verify=True)
    assert source.seed == "s" and not source.free
    assert source.shuffle(NAMES, SHUFFLE, 0) == order
    with pytest.raises(ImpossibleOutcome) as info:
        ChanceSource("s", given=[order[::-1]], verify=True).shuffle(NAMES, SHUFFLE, 0)
    assert str(info.value) == "event 0: the shuffle of deck differs from the one the committed seed gives"
    kept = NAMES[random.Random("s").randrange(7)]
    assert ChanceSource("s", given=[[kept]], verify=True).pick(NAMES, DRAW, 1) == [kept]
    other = next(n for n in NAMES if n != kept)
    with pytest.raises(ImpossibleOutcome) as info:
        ChanceSource("s", given=[[other]], verify=True).pick(NAMES, DRAW, 1)
    assert str(info.value) == "event 1: the draw from bag differs from the one the committed seed gives"
    assert not ChanceSource(None, given=[order], verify=True).verify  # nothing to verify against


def test_a_label_for_another_node_is_refused():
    source = ChanceSource(None, given=[{"outcome": ["a"], "node": "shuffle", "zone": "hand[1]", "rule": "move pull"}])
    with pytest.raises(ImpossibleOutcome) as info:
        source.pick(NAMES, DRAW, 2)
    assert str(info.value) == ("event 2: given outcome 0 is labelled for another chance node: node 'shuffle' "
                               "(the rules reach 'draw'); zone 'hand[1]' (the rules reach 'hand[0]')")
    labelled = {"outcome": ["a"], "node": "draw", "zone": "hand[0]", "from": "bag", "rule": "move pull",
                "source": "toy.ludex:9", "ply": 7, "kind": "chance", "seen_by": [0]}
    assert ChanceSource(None, given=[labelled]).pick(NAMES, DRAW, 2) == ["a"]


def test_a_shuffle_given_a_draws_outcome_names_its_event():
    source = ChanceSource(None, given=[{"outcome": ["a"], "node": "draw"}])
    with pytest.raises(ImpossibleOutcome) as info:
        source.shuffle(NAMES, SHUFFLE, 3)
    assert info.value.ply == 3
    assert str(info.value) == "event 3: given outcome 0 is labelled for another chance node: node 'draw' (the rules reach 'shuffle')"


def test_an_outcome_needed_says_which_node_and_what_it_may_be():
    """What OpenSpiel's chance player reads (ludex/rl): the node, its candidates, and a draw's
    probabilities (uniform, in name order); a shuffle is chosen one component at a time."""
    with pytest.raises(OutcomeNeeded) as info:
        ChanceSource(None, given=[], strict=True).pick(["c", "a", "b", "d"], DRAW, 5)
    needed = info.value
    assert (needed.ply, needed.node, needed.names) == (5, DRAW, ["c", "a", "b", "d"])
    assert needed.probabilities() == [("c", 0.25), ("a", 0.25), ("b", 0.25), ("d", 0.25)]
    assert str(needed) == "event 5: the given outcomes ran out after 0: the rules reach a draw from bag to hand[0] (move pull, toy.ludex:9)"
    with pytest.raises(OutcomeNeeded) as info:
        ChanceSource(None, given=[], strict=True).shuffle(NAMES, SHUFFLE, 0)
    with pytest.raises(ValueError) as wrong:
        info.value.probabilities()
    assert str(wrong.value) == "a shuffle of deck (setup, toy.ludex:4) is a shuffle: its outcomes are the orders of 7 components"


def test_strict_outcomes_must_be_used_exactly():
    source = ChanceSource(None, given=[["a"]], strict=True)
    assert not source.free
    source.pick(NAMES, DRAW, 0)
    source.check_used(1)
    with pytest.raises(ImpossibleOutcome) as info:
        source.shuffle(NAMES, SHUFFLE, 1)
    assert str(info.value) == ("event 1: the given outcomes ran out after 1: the rules reach a shuffle of deck "
                               "(setup, toy.ludex:4)")
    left = ChanceSource(None, given=[{"outcome": ["b", "c"], "node": "draw", "zone": "hand[0]"}, ["d"]], strict=True)
    with pytest.raises(ImpossibleOutcome) as info:
        left.check_used(9)
    assert str(info.value) == "event 9: 2 given outcome(s) left over, the first ['b', 'c'] (labelled node draw, zone hand[0])"
    with pytest.raises(ImpossibleOutcome) as info:
        ChanceSource(None, given=[["d"]], strict=True).check_used(9)
    assert str(info.value) == "event 9: 1 given outcome(s) left over, the first ['d']"
    ChanceSource(None, given=[["d"]]).check_used(9)  # not strict: leftovers are fine


def test_chance_nodes_describe_themselves():
    assert SHUFFLE.describe() == "a shuffle of deck (setup, toy.ludex:4)"
    assert DRAW.describe() == "a draw from bag to hand[0] (move pull, toy.ludex:9)"
    assert ChanceNode("draw", "z", "bag", "setup", "").describe() == "a draw from bag to z (setup)"
    assert DRAW.label() == {"node": "draw", "zone": "hand[0]", "from": "bag", "rule": "move pull", "source": "toy.ludex:9"}


def test_given_outcomes_are_read_or_refused_saying_why():
    assert Given.of(("a", "b"), 0) == Given(("a", "b"), {})
    assert Given.of({"outcome": ["a"], "node": "draw", "zone": "", "rule": None}, 0) == Given(("a",), {"node": "draw"})
    for bad, message in (
        ({"outcome": ["a"], "colour": "red", "size": 1},
         "given outcome 3: unknown field(s) colour, size; a label may name node, zone, from, rule, source"),
        ("ab", "given outcome 3: the outcome is a list of component names, not 'ab'"),
        ({"node": "draw"}, "given outcome 3: the outcome is a list of component names, not None"),
        ([1, 2], "given outcome 3: the outcome is a list of component names, not [1, 2]"),
        (7, "given outcome 3: the outcome is a list of component names, not 7"),
    ):
        with pytest.raises(ValueError) as info:
            Given.of(bad, 3)
        assert str(info.value) == message


def test_a_clone_draws_on_its_own():
    source = ChanceSource(3, given=[["a"]])
    twin = source.clone()
    assert twin.pick(NAMES, DRAW, 0) == ["a"] and list(source.given) == [Given(("a",), {})]
    assert source.pick(NAMES, DRAW, 0) == ["a"]
    assert [source.pick(NAMES, DRAW, 1) for _ in range(3)] == [twin.pick(NAMES, DRAW, 1) for _ in range(3)]
    assert (twin.used, twin.shares) == (1, 0)


def test_a_shared_source_is_copied_before_a_holder_draws():
    source = ChanceSource(8)
    assert source.own() is source  # held by one: drawn from in place
    assert source.share() is source and source.shares == 1
    mine = source.own()
    assert mine is not source and source.shares == 0
    assert mine.pick(NAMES, DRAW, 0) == source.pick(NAMES, DRAW, 0)  # the same stream, drawn apart
    assert ChanceSource(8).free and ChanceSource(8).seed == 8


def test_the_inlined_shuffle_is_used_only_where_it_is_the_standard_librarys(monkeypatch):
    """`shuffle_list` is the inlined shuffle when this Python's `random.Random.shuffle` draws the
    same way (checked once, at import), else the standard library's own; either way a seed's
    shuffles are the standard library's."""
    from runtime import chance

    assert chance._same_as_random() is True  # CPython 3.11 and later draw swap indexes this way
    assert chance.shuffle_list is chance._shuffle_inline
    rng, names = random.Random("x"), list(range(30))
    chance._shuffle_random(rng, names)
    assert (names, rng.random()) == _reference_shuffle("x", list(range(30)))

    def reversed_shuffle(rng, x):
        x.reverse()

    monkeypatch.setattr(chance, "_shuffle_inline", reversed_shuffle)
    assert chance._same_as_random() is False  # an inlined shuffle that differs is not used
    monkeypatch.undo()

    def shuffle_then_draw(rng, x):
        random.Random.shuffle(rng, x)
        rng.random()  # the same order, but the RNG moved on: later draws would differ

    monkeypatch.setattr(chance, "_shuffle_inline", shuffle_then_draw)
    assert chance._same_as_random() is False
    monkeypatch.undo()
    monkeypatch.setattr(random.Random, "_randbelow", random.Random._randbelow_without_getrandbits)
    assert chance._same_as_random() is False  # another way of drawing below n


def test_a_source_shared_by_several_states_is_copied_for_each_but_the_last():
    source = ChanceSource(8)
    source.share()
    source.share()  # held by three states
    first, second = source.own(), source.own()
    assert first is not source and second is not source and first is not second
    assert source.own() is source  # the last holder draws from it in place
    source.share()
    assert source.clone().shares == 0  # a copy is held by its own holder alone


def test_a_bad_given_outcome_is_named_by_its_position():
    with pytest.raises(ValueError) as info:
        ChanceSource(None, given=[["a"], "b"])
    assert str(info.value) == "given outcome 1: the outcome is a list of component names, not 'b'"
    with pytest.raises(ImpossibleOutcome) as info:
        ChanceSource(None, given=[["e", "c"]]).pick(["c", "d"], DRAW, 3, rejected=["a", "b"])
    assert str(info.value) == "event 3: ['e', 'c'] cannot be drawn from bag now (possible: c, d, after any put back of a, b)"
