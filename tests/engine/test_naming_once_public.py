"""Which hidden card a reader may name once it is public (`runtime.sentences.named_after_move`,
kept by `Readers` move by move and folded from a log by `runtime.replay.named_in_log`): the one
card a move laid face up, never a card still hidden from the reader, never one it sees only
later, and never one of several that turned face up at once (which one was played is not told).
A card its own move's effects turn face down again is named all the same, since it lay face up
on the way; one that only passed through places hidden from the reader is not. The deck is
stacked through the shuffle's chance outcome."""

from __future__ import annotations

from pathlib import Path

from dsl import load_from_sources
from runtime import Game, named_in_log
from runtime.sentences import Readers

GEMS = Path(__file__).with_name("gems.ludex")  # also served by tests/service/test_named_once_public.py
# the shuffle's outcome, top first: seat 0 is dealt ruby, jade, opal; seat 1 onyx, pearl, topaz
STACKED = ["ruby", "jade", "opal", "onyx", "pearl", "topaz", "amber", "coral"]
READERS = (0, 1, None)


def _play(moves):
    g = Game.new(load_from_sources((("gems.ludex", GEMS.read_text(encoding="utf-8")),)), 2, seed=1, outcomes=[STACKED], strict=True)
    assert [c["name"] for c in g.view(0)["zones"]["hand[0]"]["components"]] == STACKED[:3]
    readers = Readers(READERS)
    readers.note(g, list(g.events))
    plies = []
    for seat, name, gem in moves:
        made = g.apply(seat, {"name": name, "args": {"c": gem}})
        readers.note(g, made)
        plies.append(made[0].ply)
    return g, readers, plies


def test_a_gem_laid_face_up_is_named_and_one_kept_face_down_is_not():
    g, readers, (keep, lay, lay_back) = _play([(0, "keep", "ruby"), (1, "lay", "onyx"), (0, "lay", "jade")])
    for reader in (1, None):  # they saw ruby's and jade's slots only
        assert readers.named[reader].get(keep) is None  # ruby: face down, hidden from them still
        assert readers.named[reader][lay_back] == {"c": "jade"}
    for reader in (0, None):
        assert readers.named[reader][lay] == {"c": "onyx"}
    assert lay not in readers.named[1] and keep not in readers.named[0]  # its own move: never a slot to name
    assert named_in_log(g.ruleset, 2, None, list(g.events), READERS).named == readers.named


def test_gems_that_turn_face_up_together_are_not_tied_to_the_moves_that_kept_them():
    # seat 0 keeps ruby, then jade: the second keep flips both face up at once
    g, readers, (first, _lay, second) = _play([(0, "keep", "ruby"), (1, "lay", "onyx"), (0, "keep", "jade")])
    face_up = {c["name"] for c in g.view(1)["zones"]["table"]["components"]}
    assert {"ruby", "jade"} <= face_up  # seat 1 sees both now, but not which was kept when
    for reader in (1, None):
        assert first not in readers.named[reader] and second not in readers.named[reader]
    assert named_in_log(g.ruleset, 2, None, list(g.events), READERS).named == readers.named


def test_a_gem_face_up_only_within_its_own_move_is_named_and_one_buried_unseen_is_not():
    # seat 0 burns ruby (face up on the pyre, then to the face-down ash by the trigger the move
    # sets off), seat 1 buries onyx (its purse, then the ash: never face up), seat 0 buries jade
    g, readers, (burn, bury, bury_back) = _play([(0, "burn", "ruby"), (1, "bury", "onyx"), (0, "bury", "jade")])
    for reader in READERS:
        assert not g.view(reader)["zones"]["pyre"]["components"]  # no reader sees ruby any more
        assert g.view(reader)["zones"]["ash"]["count"] == 3
    for reader in (1, None):
        assert readers.named[reader][burn] == {"c": "ruby"}
        assert bury_back not in readers.named[reader]  # jade: its slot only
    for reader in (0, None):
        assert bury not in readers.named[reader]  # onyx: its slot only
    assert named_in_log(g.ruleset, 2, None, list(g.events), READERS).named == readers.named


def test_what_passes_is_noted_only_while_a_reader_watches_and_never_by_a_clone():
    g, readers, _ = _play([(0, "lay", "ruby")])
    assert g.st.passing == []  # watched: the next decision's moves go here
    probe = g.clone()
    probe.apply(1, {"name": "burn", "args": {"c": "onyx"}})
    assert probe.st.passing is None and g.st.passing == []
    g.apply(1, {"name": "burn", "args": {"c": "onyx"}})
    zones = {z.idx: z.key for z in g.st.zone_refs}
    assert [(name, zones[i]) for name, i in g.st.passing] == [("onyx", "pyre"), ("onyx", "ash")]
    unwatched = Game.new(g.ruleset, 2, seed=1, outcomes=[STACKED], strict=True)
    unwatched.apply(0, {"name": "burn", "args": {"c": "ruby"}})
    assert unwatched.st.passing is None
