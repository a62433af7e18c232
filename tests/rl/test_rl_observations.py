"""Observations: each vector says what the seat's view says, and nothing the view hides
(a property test: dealing the hidden components again never changes the seat's vector)."""

from __future__ import annotations

import gc
import random
import zlib

import pytest

np = pytest.importorskip("numpy")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from rl_cases import case_id, cases, positions, random_plies  # noqa: E402

from ludex.rl.observations import MARK_BUCKETS, ObservationEncoder  # noqa: E402
from ludex.rl.spec import Spec  # noqa: E402
from search.determinise import determinise  # noqa: E402

RULESETS = [("hanabi", 2), ("hanabi", 4), ("battle_line", 2), ("balloon_cup", 2), ("weather_machine", 3)]
_SPECS: dict = {}


def spec_of(name: str, seats: int) -> Spec:
    if (name, seats) not in _SPECS:
        _SPECS[name, seats] = Spec(name, seats)
    return _SPECS[name, seats]


def fields(spec: Spec, vec) -> dict:
    return {f["name"]: (vec[f["offset"]:f["offset"] + f["size"]], f["labels"]) for f in spec.encoder.layout()}


def bits(marks) -> set[int]:
    return {zlib.crc32(repr(m).encode()) % MARK_BUCKETS for m in marks}


def assert_matches_view(spec: Spec, g, seat: int, vec) -> None:
    """Every field of the vector read back against `g.view(seat)`."""
    view, f = g.view(seat), fields(spec, vec)
    assert f["seat"][0].tolist() == [1.0 if s == seat else 0.0 for s in range(spec.nseats)]
    actor = f["actor"][0]
    assert actor.tolist() == ([0.0] * spec.nseats if view["terminal"] else [1.0 if s == view["actor"] else 0.0 for s in range(spec.nseats)])
    step, labels = f["step"]
    assert labels[int(np.argmax(step))] == view["step"] and step.sum() == 1
    for key, zv in view["zones"].items():
        seg, labels = f[f"zone {key}"]
        assert seg[0] == (zv["count"] or 0), key
        shown = "components" in zv
        assert seg[1] == (1.0 if shown else 0.0), key
        present = {labels[i] for i in np.flatnonzero(seg[2:]) + 2}
        assert present == ({c["name"] for c in zv["components"]} if shown else set()), key
        marks, mlabels = f["marks"]
        for c in zv.get("components", ()):
            got = {int(lab.rsplit(":", 1)[1]) for lab in (mlabels[i] for i in np.flatnonzero(marks)) if lab.rsplit(":", 1)[0] == c["name"]}
            assert got == bits(c.get("marks", [])), (key, c["name"])
        if zv.get("slots"):
            place, plabels = f[f"place marks {key}"]
            for s in zv["slots"]:
                got = {int(lab.rsplit(":", 1)[1]) for lab in (plabels[i] for i in np.flatnonzero(place)) if lab.startswith(f"@{s['slot']}:")}
                assert got == bits(s["marks"]), (key, s)
    for name, value in view["vars"].items():
        if isinstance(value, (int, bool)) and f"var {name}" in f and f[f"var {name}"][1] == ["value"]:
            assert f[f"var {name}"][0][0] == float(value), name
    for ent, members in view.get("entities", {}).items():
        assert f[f"entity {ent}"][0][0] == (1.0 if members["alive"] else 0.0), ent
        for name, value in members.items():
            seg = f.get(f"entity {ent}.{name}")
            if seg is None or isinstance(value, str):
                continue
            got, labels = seg
            if labels == ["none", "value"]:  # an optional number: its none-bit, then its value
                assert got.tolist() == ([1.0, 0.0] if value is None else [0.0, float(value)]), (ent, name)
            elif labels == ["value"] and isinstance(value, (int, bool)):
                assert got[0] == float(value), (ent, name)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(RULESETS), seed=st.integers(0, 10_000), plies=st.integers(0, 60), data=st.data())
def test_hidden_components_never_change_a_seats_observation(case, seed, plies, data):
    spec = spec_of(*case)
    g = positions(spec, plies + 1, seed)[-1]
    seat = data.draw(st.integers(0, spec.seats - 1), label="seat")
    before = spec.encoder.encode(g, seat)
    assert_matches_view(spec, g, seat, before)
    for k in range(3):
        other = determinise(g, seat, random.Random(seed * 7 + k))
        assert other.view(seat) == g.view(seat)  # the same information set...
        assert np.array_equal(spec.encoder.encode(other, seat), before)  # ...the same vector


def test_dealing_hidden_cards_again_does_change_what_another_seat_sees():
    # the control for the property above: the vector does read the cards a seat can see
    spec = spec_of("hanabi", 2)
    g = spec.new_game(seed=3)
    other = determinise(g, 0, random.Random(1))  # seat 0's own hand, which seat 1 sees
    assert np.array_equal(spec.encoder.encode(other, 0), spec.encoder.encode(g, 0))
    assert not np.array_equal(spec.encoder.encode(other, 1), spec.encoder.encode(g, 1))


def test_hint_marks_on_ones_own_hand_are_read_by_place():
    spec = spec_of("hanabi", 2)
    g = spec.new_game(seed=3)
    g.apply(0, {"name": "hint_rank", "args": {"target": 1, "rank": 1}})
    for seat in (0, 1):
        assert_matches_view(spec, g, seat, spec.encoder.encode(g, seat))
    f = fields(spec, spec.encoder.encode(g, 1))
    assert f["place marks hand[1]"][0].sum() == 5  # one hint, one bit on each of seat 1's five places
    assert f["place marks hand[0]"][0].sum() == 0  # seat 1 sees seat 0's hand: its marks are on the cards


def test_entity_fields_are_read_from_the_game_encoded():
    # Balloon Cup's first cube sets its tile's `last_placer`: the vector says so (it once read
    # the entities of the game the encoder was built from)
    spec = spec_of("balloon_cup", 2)
    g = spec.new_game(seed=0)
    seat = g.decision().seats[0]
    g.apply(seat, g.legal_moves(seat)[0])
    placed = [name for name, e in g.view(0)["entities"].items() if e["last_placer"] is not None]
    assert placed, "the first move places a cube on a tile"
    vec = spec.encoder.encode(g, 0)
    assert_matches_view(spec, g, 0, vec)
    f = fields(spec, vec)
    assert all(f[f"entity {name}.last_placer"][0][0] == 0.0 for name in placed)  # not none


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_vectors_kept_through_an_episode_equal_fresh_encodings(case):
    """`encode` brings each seat's kept vector up to date with what changed; at every ply of
    random games, for seats asking at random plies (as agents of an episode do), it equals
    encoding the position afresh and reads back as the view says."""
    name, variants, seats = case
    spec = Spec(name, seats, variants)
    encoder = ObservationEncoder(spec.new_game(seed=0), keep=True)  # whatever the default for this game
    rng = random.Random(11)
    for ply, (g, _actor) in enumerate(random_plies(spec, 2, 150, rng)):
        for seat in range(spec.seats):
            if rng.random() < 0.5:
                kept = encoder.encode(g, seat)
                assert np.array_equal(kept, encoder.encode_fresh(g, seat)), (ply, seat)
                if ply % 25 == 0:
                    assert_matches_view(spec, g, seat, kept)


@pytest.mark.parametrize("case", [("hanabi", 2), ("hanabi", 4)], ids=lambda c: f"{c[0]}-{c[1]}")  # (games with marks)
def test_positions_of_games_encoded_in_turn_equal_a_new_encoders_vectors(case):
    """One encoder asked about positions of three games in turn, twice over (a search's or the
    bench's clones: marks tuples shared by clones, found again by what the encoder keeps of
    them), then about positions dropped and made again (the ids of dead marks tuples reused),
    gives what a new encoder gives for each position."""
    spec = spec_of(*case)
    probe = spec.new_game(seed=0)
    encoder = ObservationEncoder(probe)
    games = [positions(spec, 40, seed) for seed in (1, 2, 3)]
    turns = [p for triple in zip(*games) for p in triple]
    assert any(p.st.marks for p in turns)  # else the marks' bits are never looked up
    expected = []
    for p in turns:
        new = ObservationEncoder(probe)
        expected.append([new.encode_fresh(p, s) for s in range(spec.seats)])
    for _ in range(2):
        for p, vectors in zip(turns, expected):
            for s in range(spec.seats):
                assert np.array_equal(encoder.encode_fresh(p, s), vectors[s]), (p.st.version, s)
    del games, turns, expected, p
    for seed in range(4, 16):
        for p in positions(spec, 40, seed):  # each batch dropped before the next is made
            for s in range(spec.seats):
                assert np.array_equal(encoder.encode_fresh(p, s), ObservationEncoder(probe).encode_fresh(p, s)), (seed, s)
        gc.collect()


def test_marks_equal_but_written_differently_have_their_own_bits():
    # a mark's bit comes from its text (`repr`); the encoder keeps bits by value, and 1 == True
    # == 1.0, "1" != 1: each mark here, after its look-alike was encoded, gives what a new
    # encoder gives
    spec = spec_of("hanabi", 2)
    g = spec.new_game(seed=3)
    encoder = spec.encoder
    card = g.st.zones[g.st.g["hand"][1].idx][0]
    pairs = [(1, True), (0, False), (1, 1.0), (1, "1"), (0.0, -0.0), (True, 1.0)]
    assert any(bits([["rank", a]]) != bits([["rank", b]]) for a, b in pairs)  # else the test could not fail
    for a, b in pairs:
        for value in (a, b):
            g.st.unmark(card)
            g.st.mark(card, ["rank", value])
            for seat in (0, 1):  # seat 0 sees the card, seat 1 its place
                assert np.array_equal(encoder.encode(g, seat), ObservationEncoder(g).encode(g, seat)), (value, seat)
        # a card's marks, then its look-alike and one mark more (the kept marks' bits plus the new one's)
        g.st.unmark(card)
        g.st.mark(card, ["rank", a])
        encoder.encode(g, 0)
        g.st.unmark(card)
        g.st.mark(card, ["rank", b])
        g.st.mark(card, ["colour", "red"])
        for seat in (0, 1):
            assert np.array_equal(encoder.encode(g, seat), ObservationEncoder(g).encode(g, seat)), (a, b, seat)


def test_one_tuple_of_marks_on_two_components_is_read_on_each():
    # the encoder keeps a tuple of marks' bits with their entries on its component and finds
    # the tuple again by identity; the state makes a new tuple per component, but a copy made
    # outside the rules could put one tuple on two components: each is read where it lies, as
    # if each had a tuple of its own
    spec = spec_of("hanabi", 2)
    g = spec.new_game(seed=3)
    hand = g.st.zones[g.st.g["hand"][1].idx]
    g.st.mark(hand[0], ["rank", 1])
    shared, own = g.clone(), g.clone()
    shared.st.own_marks()[hand[1].id] = shared.st.marks[hand[0].id]
    own.st.own_marks()[hand[1].id] = (*own.st.marks[hand[0].id],)
    assert shared.st.marks[hand[1].id] is shared.st.marks[hand[0].id]
    assert own.st.marks[hand[1].id] is not own.st.marks[hand[0].id]
    for seat in (0, 1):  # seat 0 sees the cards, seat 1 their places
        assert np.array_equal(ObservationEncoder(g).encode(shared, seat), ObservationEncoder(g).encode(own, seat)), seat
