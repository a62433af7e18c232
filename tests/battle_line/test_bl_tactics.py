"""Each of the ten tactics cards (L12-L15) and the decisions about them (E-BL2..E-BL5)."""

from __future__ import annotations

import pytest
from bl_helpers import (
    apply,
    claimable,
    finish_turn,
    flag,
    hand,
    names,
    new_game,
    play,
    put,
    refused,
    side,
    strength,
)


def test_alexander_is_the_best_card_for_the_formation() -> None:
    g = new_game(hand0=["red-9", "red-10"])
    hand(g, 0, ["alexander"])
    side(g, 0, 1, ["red-9", "red-10"])
    apply(g, "play_morale", card="alexander", f="flag1")
    # red 8-9-10: nothing can beat it, another colour's 8-9-10 only ties (and would complete last)
    assert 1 in claimable(g)
    assert strength(["alexander", "red-9", "red-10"]) == 527


def test_one_leader_per_player_per_game() -> None:
    g = new_game()
    hand(g, 0, ["alexander", "darius"])
    hand(g, 1, ["companion_cavalry"])
    play(g, "alexander", 1)
    play(g, "companion_cavalry", 1)
    assert "one Leader" in refused(g, "play_morale", card="darius", f="flag2")
    # E-BL3: still so after the first Leader has left the table
    put(g, "discard[0]", ["alexander"])
    assert "one Leader" in refused(g, "play_morale", card="darius", f="flag2")


def test_tactics_limit() -> None:
    g = new_game()
    hand(g, 0, ["companion_cavalry", "shield_bearers"])
    play(g, "companion_cavalry", 1)
    play(g, names(g, "hand[1]")[0], 2)
    assert "L12" in refused(g, "play_morale", card="shield_bearers", f="flag3")
    # E-BL5: a discarded tactics card still counts
    put(g, "discard[0]", ["companion_cavalry"])
    assert "L12" in refused(g, "play_morale", card="shield_bearers", f="flag3")


def test_companion_cavalry_is_an_eight_of_any_colour() -> None:
    g = new_game(hand0=["red-7", "red-9"])
    hand(g, 0, ["companion_cavalry"])
    side(g, 1, 1, ["blue-6", "blue-7", "blue-8"], done_at=0)  # 521
    side(g, 0, 1, ["red-7", "red-9"])
    apply(g, "play_morale", card="companion_cavalry", f="flag1")
    assert 1 in claimable(g)  # red 7-8-9: 524 beats 521


def test_shield_bearers_is_one_to_three_of_any_colour() -> None:
    g = new_game(hand0=["blue-2", "blue-3"])
    hand(g, 0, ["shield_bearers"])
    side(g, 1, 1, ["green-10", "green-9", "green-7"], done_at=0)  # battalion order, 326
    side(g, 0, 1, ["blue-2", "blue-3"])
    apply(g, "play_morale", card="shield_bearers", f="flag1")
    assert 1 in claimable(g)  # blue 1-2-3: a wedge
    g = new_game(hand0=["red-9", "red-10"])
    hand(g, 0, ["shield_bearers"])
    side(g, 1, 1, ["yellow-10", "yellow-9", "yellow-5"], done_at=0)  # 324
    side(g, 0, 1, ["red-9", "red-10"])
    apply(g, "play_morale", card="shield_bearers", f="flag1")
    # it cannot be an 8: red 3-9-10 is a battalion order of 322
    assert "does not beat" in refused(g, "claim", f="flag1")


def test_fog_compares_sums_only() -> None:
    g = new_game()
    hand(g, 1, ["fog"])
    side(g, 0, 1, ["red-1", "red-2", "red-3"], done_at=0)
    side(g, 1, 1, ["green-10", "yellow-10", "purple-9"], done_at=1)
    play(g, names(g, "hand[0]")[0], 5)  # seat 0 does not claim flag 1 (it could: a wedge beats a host)
    apply(g, "play_environment", card="fog", f="flag1")
    assert 1 in claimable(g)  # 29 beats 6
    finish_turn(g, claims=[1])
    assert g.st.member(flag(g, 1), "owner") == 1


def test_mud_needs_four_cards_a_side() -> None:
    g = new_game(hand0=["red-4"])
    hand(g, 1, ["mud"])
    side(g, 0, 1, ["red-1", "red-2", "red-3"], done_at=0)
    play(g, names(g, "hand[0]")[-1], 5)
    apply(g, "play_environment", card="mud", f="flag1")
    assert g.st.member(flag(g, 1), "done_at")[0] is None
    finish_turn(g)
    apply(g, "play_troop", card=names(g, "hand[0]")[-1], f="flag6")
    assert "not complete" in refused(g, "claim", f="flag1")
    finish_turn(g)
    play(g, names(g, "hand[1]")[0], 7)
    apply(g, "play_troop", card="red-4", f="flag1")
    assert g.st.member(flag(g, 1), "done_at")[0] is not None  # complete again with four


@pytest.mark.parametrize("with_fog", [True, False])
def test_fog_with_mud_compares_four_card_sums(with_fog: bool) -> None:
    g = new_game()
    put(g, "flag1.env[1]", ["mud"] + (["fog"] if with_fog else []))
    side(g, 1, 1, ["blue-1", "blue-2", "blue-3", "blue-4"], done_at=0)  # a four-card wedge, sum 10
    side(g, 0, 1, ["red-10", "green-10", "yellow-9", "purple-9"])  # a host, sum 38
    apply(g, "play_troop", card=names(g, "hand[0]")[0], f="flag5")
    if with_fog:
        assert 1 in claimable(g)
    else:
        assert "does not beat" in refused(g, "claim", f="flag1")


def test_scout_draws_three_and_returns_two() -> None:
    g = new_game(top=["purple-1", "purple-2"], tactics=["mud"])
    hand(g, 0, ["scout"])
    before = names(g, "hand[0]")
    apply(g, "play_scout", card="scout")
    assert g.st.step == "scout_draw"
    apply(g, "scout_troop")
    apply(g, "scout_troop")
    apply(g, "scout_tactics")
    assert len(names(g, "hand[0]")) == 9 and {"purple-1", "purple-2", "mud"} <= set(names(g, "hand[0]"))
    assert g.st.step == "scout_return"
    back = before[1]
    apply(g, "scout_put_back", card="mud")
    apply(g, "scout_put_back", card=back)
    assert names(g, "troop_deck")[0] == back and names(g, "tactics_deck")[0] == "mud"
    assert len(names(g, "hand[0]")) == 7
    assert g.st.step == "claims"
    apply(g, "end_claims")
    assert g.st.actor == 1 and g.st.step == "play"  # no normal draw after Scout


def test_scout_with_empty_decks_draws_what_there_is() -> None:
    g = new_game(variants=())
    hand(g, 0, ["scout"])
    put(g, "discard[1]", [c for c in names(g, "troop_deck")][:-1])
    put(g, "discard[1]", [c for c in names(g, "tactics_deck") if c != "scout"])
    apply(g, "play_scout", card="scout")
    apply(g, "scout_troop")
    assert g.st.step == "scout_return"  # both decks empty after one card


def test_redeploy_moves_or_discards_own_cards() -> None:
    g = new_game(hand0=["red-5"])
    hand(g, 0, ["redeploy"])
    side(g, 0, 1, ["red-5"])
    apply(g, "play_redeploy", card="redeploy", flag_from="flag1", c="red-5", flag_to="flag2")
    assert names(g, "flag2.side[0]") == ["red-5"] and names(g, "flag1.side[0]") == []
    g = new_game(hand0=["red-5"])
    hand(g, 0, ["redeploy"])
    side(g, 0, 1, ["red-5"])
    apply(g, "play_redeploy_discard", card="redeploy", flag_from="flag1", c="red-5")
    assert names(g, "discard[0]") == ["red-5"]


def test_deserter_discards_an_opponents_card() -> None:
    g = new_game()
    hand(g, 0, ["deserter"])
    side(g, 1, 1, ["blue-5", "alexander"])
    apply(g, "play_deserter", card="deserter", f="flag1", c="alexander")
    assert names(g, "discard[1]") == ["alexander"] and names(g, "flag1.side[1]") == ["blue-5"]


def test_traitor_takes_an_opponents_troop_but_not_a_tactic() -> None:
    g = new_game()
    hand(g, 0, ["traitor"])
    side(g, 1, 1, ["blue-5", "alexander"])
    assert "not one of the choices" in refused(g, "play_traitor", card="traitor", f="flag1", c="alexander", flag_to="flag2")
    apply(g, "play_traitor", card="traitor", f="flag1", c="blue-5", flag_to="flag2")
    assert names(g, "flag2.side[0]") == ["blue-5"]


@pytest.mark.parametrize("env", ["fog", "mud"])
def test_deserter_and_redeploy_cannot_touch_fog_or_mud(env: str) -> None:
    g = new_game()
    hand(g, 0, ["deserter", "redeploy"])
    put(g, "flag1.env[1]", [env])
    side(g, 1, 1, ["blue-5"])
    assert "not one of the choices" in refused(g, "play_deserter", card="deserter", f="flag1", c=env)
    g = new_game()
    hand(g, 0, ["redeploy"])
    put(g, "flag1.env[0]", [env])
    assert "not one of the choices" in refused(g, "play_redeploy_discard", card="redeploy", flag_from="flag1", c=env)
    assert "not one of the choices" in refused(g, "play_redeploy", card="redeploy", flag_from="flag1", c=env, flag_to="flag2")


def test_guile_tactics_only_at_unclaimed_flags() -> None:
    g = new_game()
    hand(g, 0, ["deserter"])
    side(g, 1, 1, ["blue-5"])
    g.st.set_member(flag(g, 1), "owner", 1)
    assert "claimed" in refused(g, "play_deserter", card="deserter", f="flag1", c="blue-5")
