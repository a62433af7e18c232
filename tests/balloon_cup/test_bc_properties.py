"""Hypothesis over seeded random legal playouts of Balloon Cup: components are conserved,
every game ends by the rules, no seat sees the other's hand, and folding the events
reproduces the state (and detects tampering, naming the ply)."""

from __future__ import annotations

import json
import random
from collections import Counter

import attrs
import pytest
from bc_helpers import PRICE, names, ruleset
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from runtime import Game, IllegalMove, ImpossibleOutcome

PLY_CAP = 1500
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def playout(rs, seed: int, check=None, options=None) -> Game:
    g = Game.new(rs, 2, options or {}, seed=seed)
    rng = random.Random(seed ^ 0x5EED)
    for _ in range(PLY_CAP):
        if g.terminal:
            break
        d = g.decision()
        assert not d.stuck, f"seat {d.seats} has no legal move at step {d.step}"
        seat = d.seats[0]
        moves = g.legal_moves(seat)
        assert moves
        g.apply(seat, rng.choice(moves))
        if check:
            check(g)
    return g


def conserved(g: Game) -> None:
    seen: Counter = Counter()
    kinds: Counter = Counter()
    for z in g.st.zone_refs:
        for c in g.st.zones[z.idx]:
            seen[c.name] += 1
            kinds[c.kind] += 1
    assert kinds == {"card": 45, "cube": 45, "trophy": 5}
    assert max(seen.values()) == 1  # no component in two places


def no_peeking(g: Game) -> None:
    spectator = g.view(None)["zones"]
    assert set(spectator["hand[0]"]) == {"count"} == set(spectator["hand[1]"])
    for seat in (0, 1):
        other = names(g, f"hand[{1 - seat}]")
        v = g.view(seat)
        assert set(v["zones"][f"hand[{1 - seat}]"]) == {"count"}
        assert v["zones"]["deck"] == {"count": len(names(g, "deck"))}
        assert v["zones"]["bag"] == {"count": len(names(g, "bag"))}
        text = json.dumps({k: val for k, val in v.items() if k != "revealed"})
        leaked = [c for c in other if f'"{c}"' in text]
        assert not leaked, f"seat {seat} sees {leaked} of the other hand"
        for r in v["revealed"]:  # a hand is shown only by the seat whose exchange this is (B10)
            assert r["zone"] == f"hand[{r['by']}]" and g.events[r["ply"]].kind == "show"
        for m in g.legal_moves(seat):
            assert not set(other) & {v for v in m.args.values() if isinstance(v, str)}


def colour_limits(g: Game, limit=2, prevention=False) -> None:
    totals: Counter = Counter()
    for n in (1, 2, 3, 4):
        cubes = Counter(c.d["colour"] for c in g.st.zones[next(z for z in g.st.zone_refs if z.key == f"tile{n}.cubes").idx])
        if limit is not None and cubes:
            assert max(cubes.values()) <= limit, f"tile {n}: {cubes}"
        totals.update(cubes)
    if prevention:
        for colour, k in totals.items():
            assert k <= PRICE[colour] - 1, f"{k} {colour} cubes on the tiles"


def ended_by_the_rules(g: Game) -> None:
    assert g.terminal, f"not over after {PLY_CAP} plies"
    out = g.outcome
    trophies = [len(names(g, f"trophies_won[{s}]")) for s in (0, 1)]
    if out["kind"] == "win":
        (w,) = out["winners"]
        assert out["reason"] == "three trophies" and trophies[w] == 3 and trophies[1 - w] < 3
    else:
        assert out["kind"] == "draw" and out["reason"] == "no tile can be completed"
        assert max(trophies) < 3
    assert g.legal_moves(0) == [] == g.legal_moves(1)


@FAST
@given(seeds)
def test_random_games_conserve_components_hide_hands_and_end(seed):
    def check(g):
        conserved(g)
        no_peeking(g)
        colour_limits(g)

    g = playout(ruleset(), seed, check)
    ended_by_the_rules(g)


@FAST
@given(seeds)
def test_folding_the_events_reproduces_the_state_and_verifies_with_the_seed(seed):
    g = playout(ruleset(), seed)
    assert Game.fold(ruleset(), 2, {}, g.events).state_hash() == g.state_hash()
    assert Game.fold(ruleset(), 2, {}, g.events, seed=seed).state_hash() == g.state_hash()
    # a prefix of the log is a valid log too
    cut = len(g.events) // 2
    while g.events[cut].kind != "move":
        cut += 1
    assert Game.fold(ruleset(), 2, {}, g.events[:cut]).outcome is None


@settings(max_examples=15, deadline=None)
@given(seeds, st.data())
def test_an_illegal_edited_move_argument_is_refused_at_its_ply(seed, data):
    g = playout(ruleset(), seed)
    places = [e for e in g.events if e.kind == "move" and e.move == "place"]
    target = data.draw(st.sampled_from(places))
    before = Game.fold(ruleset(), 2, {}, g.events[: target.ply])
    # a card the mover does not hold at that moment: one from the other seat's hand
    stolen = names(before, f"hand[{1 - target.seat}]")[0]
    log = list(g.events)
    log[target.ply] = attrs.evolve(target, args={**target.args, "card": stolen})
    with pytest.raises(IllegalMove) as exc:
        Game.fold(ruleset(), 2, {}, log)
    assert exc.value.ply == target.ply


@settings(max_examples=15, deadline=None)
@given(seeds, st.data())
def test_a_reordered_chance_outcome_fails_the_seed_check_at_its_ply(seed, data):
    g = playout(ruleset(), seed)
    shuffles = [e for e in g.events if e.kind == "chance" and e.node == "shuffle"]
    target = data.draw(st.sampled_from(shuffles))
    i = data.draw(st.integers(0, len(target.outcome) - 2))
    order = list(target.outcome)
    order[i], order[i + 1] = order[i + 1], order[i]
    log = list(g.events)
    log[target.ply] = attrs.evolve(target, outcome=order)
    with pytest.raises(ImpossibleOutcome) as exc:
        Game.fold(ruleset(), 2, {}, log, seed=seed)
    assert exc.value.ply == target.ply


@settings(max_examples=15, deadline=None)
@given(seeds, st.data())
def test_a_swapped_pair_of_cube_draws_fails_the_seed_check_at_the_first(seed, data):
    g = playout(ruleset(), seed)
    draws = [e for e in g.events if e.kind == "chance" and e.node == "draw"]
    pairs = [(a, b) for a, b in zip(draws, draws[1:]) if a.outcome != b.outcome]
    a, b = data.draw(st.sampled_from(pairs))
    log = list(g.events)
    log[a.ply] = attrs.evolve(a, outcome=b.outcome)
    log[b.ply] = attrs.evolve(b, outcome=a.outcome)
    with pytest.raises((ImpossibleOutcome, IllegalMove)) as exc:
        Game.fold(ruleset(), 2, {}, log, seed=seed)
    assert exc.value.ply == a.ply


def test_a_removed_event_is_a_log_mismatch():
    g = playout(ruleset(), 7)
    moves = [e for e in g.events if e.kind == "move"]
    log = [e for e in g.events if e is not moves[3]]
    with pytest.raises(ImpossibleOutcome) as exc:  # LogMismatch is an ImpossibleOutcome
        Game.fold(ruleset(), 2, {}, log)
    assert moves[3].ply <= exc.value.ply <= moves[4].ply


def test_events_round_trip_through_json():
    from runtime import event_from_dict, event_to_dict

    g = playout(ruleset(), 11)
    data = json.loads(json.dumps([event_to_dict(e) for e in g.events]))
    events = [event_from_dict(d) for d in data]
    assert events == g.events
    assert Game.fold(ruleset(), 2, {}, events).state_hash() == g.state_hash()


def test_event_views_hide_shuffles_and_hand_cards():
    g = playout(ruleset(), 3)
    for e in g.events:
        for seat in (0, 1):
            v = g.event_view(e, seat)
            if e.kind == "chance" and e.zone == "deck":
                assert v["outcome"] == [] and v["hidden"] == len(e.outcome)
            for arg, blind in e.hidden_from.items():
                if seat in blind:
                    assert v["args"][arg] == e.refs[arg] and "@" in v["args"][arg]
                    assert e.seat != seat


def test_every_event_points_at_the_rule_text_that_produced_it():
    g = playout(ruleset(), 21)
    lines = dict(ruleset().sources)["balloon_cup/game.ludex"].splitlines()
    kinds = Counter()
    for e in g.events:
        file, line = e.source.rsplit(":", 1)
        assert file == "balloon_cup/game.ludex"
        text = lines[int(line) - 1]
        if e.kind == "move":
            assert e.rule == f"move {e.move}" and f"move {e.move}(" in text
        elif e.kind == "show":
            assert "reveal" in text and e.zone == f"hand[{e.seat}]"
        elif e.node == "shuffle":
            assert "shuffle" in text or "reshuffling" in text
        else:
            assert e.node == "draw" and "draw random" in text
            assert e.rule in ("setup", "trigger flight")
        kinds[e.rule] += 1
    assert kinds["setup"] == 11 and kinds["move place"] > 0
