"""The bundled games read as a player would say them (issue 29): through the service, every move
of a random game, and every legal move offered, is told by its rule's `say` template, as each
seat and the spectator read it; a card a reader cannot see stays a slot in its sentence. The
sentences expected are written out here, one pattern a rule, not taken from the rule text."""

from __future__ import annotations

import random
import re

import pytest
from service_harness import play_service

CARD = r"(?:[a-z]+-\d+(?:#\d+)?|a hidden component at hand\[\d\]@\d)"
SEAT = r"Seat \d"
SAID = {
    "hanabi": {
        "hint_colour": rf"{SEAT} tells seat \d which cards are (?:red|yellow|green|white|blue)",
        "hint_rank": rf"{SEAT} tells seat \d which cards are [1-5]s",
        "discard": rf"{SEAT} discards {CARD}",
        "play": rf"{SEAT} plays {CARD}",
    },
    "balloon_cup": {
        "place": rf"{SEAT} places {CARD} on seat [01]'s side of tile\d",
        "wind": rf"{SEAT} blows the wind card {CARD} onto seat [01]'s side of tile\d, discarding [a-z]+-\d+",
        "exchange": rf"{SEAT} can place no card, shows the hand and exchanges [0-4] cards",
        "discard_card": rf"{SEAT} discards {CARD} to exchange it",
        "cannot_place": rf"{SEAT} still can place no card and shows the hand again",
        "claim": rf"{SEAT} claims trophy-[a-z]+, trading in sets: (?:nothing|[a-z]+ \d(?:, [a-z]+ \d)*)",
        "done": rf"{SEAT} claims no more trophies",
        "decline": rf"{SEAT} claims no trophy",
    },
    "weather_machine": {
        "place_award": rf"{SEAT} places a [a-z]+ award token on the (?:government|lab|rnd) office",
        "use_subsidy": rf"{SEAT} uses subsidy \S+ for b_[a-z]+",
        "set_goal": rf"{SEAT} returns an investment tile and sets the goal \S+",
        "get_funding": rf"{SEAT} returns an investment tile and flips the goal \S+ for funding through [a-z]+ \(pick \d\)",
        "skip_start": rf"{SEAT} skips the subsidies and investments",
        "go": rf"{SEAT} sends the scientist to (?:government|lab|rnd), space [0-2]",
        "go_supplier": rf"{SEAT} sends the scientist to the Supplier, space [0-3], taking a [a-z]+_v voucher",
        "gain_action_value": rf"{SEAT} moves the action-value marker to [0-3]",
        "take_chemical": rf"{SEAT} takes a [a-z]+ chemical",
        "return_chemical": rf"{SEAT} returns a [a-z]+ chemical",
        "build_a_bot": rf"{SEAT} builds a bot",
        "extend_workshop": rf"{SEAT} extends the workshop with \S+",
        "supply_done": rf"{SEAT} stops taking Supplier actions",
        "sell_part": rf"{SEAT} sells a [a-z]+ part to the Government",
        "secure_subsidy": rf"{SEAT} secures the subsidy \S+ and a [a-z]+ Government research token",
        "run_experiment": rf"{SEAT} runs a [a-z]+ experiment, paying [a-z]+",
        "publish": rf"{SEAT} publishes on [a-z]+ \(citation unlocked: (?:yes|no)\)",
        "research": rf"{SEAT} researches [a-z]+, paying [a-z]+",
        "major_research": rf"{SEAT} builds a [a-z]+ prototype",
        "exchange_part": rf"{SEAT} swaps the part \S+ for a [a-z]+ one",
        "done_actions": rf"{SEAT} ends the turn",
        "final_done": rf"{SEAT} ends the final actions",
        "call_security": rf"{SEAT} calls security",
        "keep_report": rf"{SEAT} keeps the report \S+(?: at \S+)? and puts \S+(?: at \S+)? back on the deck",
        "sab_move": r"The Saboteurs \(seat 1\) move their agent",
        "sab_supply": r"The Saboteurs \(seat 1\) act at the Supplier",
        "sab_government": r"The Saboteurs \(seat 1\) act at the Government on [a-z]+",
        "sab_lab": r"The Saboteurs \(seat 1\) act in the Lab on [a-z]+",
        "sab_rnd": r"The Saboteurs \(seat 1\) research [a-z]+",
        "sab_no_branch": r"The Saboteurs \(seat 1\) find no branch: they discard a report and take a chemical",
        "sab_report": r"The Saboteurs \(seat 1\) draw a new report",
    },
}
GAMES = [("hanabi", [], 2, 40), ("balloon_cup", [], 2, 60), ("balloon_cup", ["wind"], 2, 60),
         ("weather_machine", [], 2, 80), ("weather_machine", ["solo"], 1, 80)]


def _service(tmp_path):
    from api.app import GameService
    from api.store import EventStore

    return GameService(EventStore(f"sqlite:///{tmp_path / 'ludex.db'}"))


@pytest.mark.parametrize(("ruleset", "variants", "seats", "moves"), GAMES)
def test_every_move_and_legal_move_reads_as_the_rules_say_it(tmp_path, ruleset, variants, seats, moves):
    said = SAID[ruleset]
    service = _service(tmp_path)
    game = service.create_game(ruleset, variants=variants, seats=seats, seed=f"say {variants}")
    rng, played = random.Random(5), set()
    for _ in range(moves):
        view = service.view(game["game_id"], None)
        if view["terminal"]:
            break
        seat = rng.choice(view["decision"]["seats"])
        legal = service.legal_moves(game["game_id"], game["tokens"][seat])
        for move, text in zip(legal["moves"], legal["texts"]):
            assert re.fullmatch(said[move["name"]], text), (move, text)
        play_service(service, game, rng, moves=1)
    for reader in [None, *range(len(game["tokens"]))]:
        shown = service.events(game["game_id"], game["tokens"][reader] if reader is not None else None)
        for entry, text in zip(shown["events"], shown["texts"]):
            if entry["kind"] == "move":
                body = entry["body"]
                assert re.fullmatch(said[body["move"]], text), (reader, body, text)
                assert text.startswith(f"Seat {body['seat']} ") or text.startswith("The Saboteurs")
                played.add(body["move"])
    assert len(played) >= 3, played  # several rules were read, not one


def test_a_hint_is_told_to_the_seat_it_touches_and_the_table_alike(tmp_path):
    service = _service(tmp_path)
    game = service.create_game("hanabi", seats=2, seed="a hint")
    legal = service.legal_moves(game["game_id"], game["tokens"][0])
    hint = next(m for m in legal["moves"] if m["name"] == "hint_colour" and m["args"]["colour"] == "green")
    service.submit_move(game["game_id"], game["tokens"][0], hint, legal["version"])
    for reader in (None, 0, 1):
        texts = service.events(game["game_id"], game["tokens"][reader] if reader is not None else None)["texts"]
        assert texts[-1] == "Seat 0 tells seat 1 which cards are green"
