"""Which hidden card a reader may name once it is public (`runtime.sentences.named_after_move`,
kept by `Readers` move by move and folded from a log by `runtime.replay.named_in_log`): the one
card a move laid face up, never a card still hidden from the reader, never one it sees only
later, and never one of several that turned face up at once (which one was played is not told).
The deck is stacked through the shuffle's chance outcome."""

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
