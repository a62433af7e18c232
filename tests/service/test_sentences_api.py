"""The API tells each event, legal move and ending as a sentence, beside the records (never
inside them, so an exported log still audits), and a sentence tells no more than the record
it reads: a hidden card stays hidden in the text too."""

from __future__ import annotations

import random

from service_harness import play_service


def _service(tmp_path):
    from api.app import GameService
    from api.store import EventStore

    return GameService(EventStore(f"sqlite:///{tmp_path / 'ludex.db'}"))


def test_events_and_legal_moves_come_with_their_sentences(tmp_path):
    service = _service(tmp_path)
    game = service.create_game("balloon_cup", seats=2, seed="texts")
    seat = service.view(game["game_id"], None)["decision"]["seats"][0]
    legal = service.legal_moves(game["game_id"], game["tokens"][seat])
    assert len(legal["texts"]) == len(legal["moves"]) > 0
    first = legal["moves"][0]
    assert legal["texts"][0] == (f"Seat {seat} places {first['args']['card']} on seat {first['args']['s']}'s side "
                                 f"of {first['args']['t']}")  # the rules' `say` template
    moved = service.submit_move(game["game_id"], game["tokens"][seat], first, legal["version"])
    assert len(moved["texts"]) == len(moved["events"])
    assert moved["texts"][0] == legal["texts"][0]
    events = service.events(game["game_id"], None)
    assert len(events["texts"]) == len(events["events"])
    assert events["texts"][0].startswith("A game of balloon_cup for 2 seats begins")
    assert all("text" not in e for e in events["events"])  # the records are the log's, unchanged


def test_a_hidden_card_stays_hidden_in_the_sentence_and_is_named_once_public(tmp_path):
    service = _service(tmp_path)
    game = service.create_game("hanabi", seats=2, seed="hidden texts")
    play_service(service, game, random.Random(1), moves=4)
    full = service.export(game["game_id"])
    assert sum(1 for e in full if e["body"].get("hidden_from")) >= 2  # cards played unseen by their holder
    for seat in (0, 1):
        shown = service.events(game["game_id"], game["tokens"][seat])
        assert not shown["finished"]
        public = {c["name"] for z in service.view(game["game_id"], game["tokens"][seat])["view"]["zones"].values()
                  for c in z.get("components") or ()}
        for record, told, mine in zip(full, shown["texts"], shown["events"]):
            body = record["body"]
            for arg, blind in (body.get("hidden_from") or {}).items():
                if seat in blind:  # a card its holder played unseen: named, since it lies face up now
                    assert body["args"][arg] in public and body["args"][arg] in told, (told, body)
                    assert mine["body"]["args"][arg] not in told  # the record still shows its slot
            if record["kind"] == "chance" and body.get("seen_by") is not None and seat not in body["seen_by"]:
                assert not any(name in told for name in body["outcome"]), told


def test_a_finished_game_says_why_it_ended(tmp_path):
    service = _service(tmp_path)
    game = service.create_game("battle_line", seats=2, seed="ending")
    last = play_service(service, game, random.Random(2))
    ending = last["ending"]
    assert ending == service.view(game["game_id"], None)["ending"]
    assert ending["rule"].split()[0] in ("trigger", "move")
    line = int(ending["rule_source"].rsplit(":", 1)[1])
    text = dict(service.export(game["game_id"])[0]["body"]["sources"])["battle_line/game.ludex"]
    assert text.splitlines()[line - 1].lstrip().startswith(ending["rule"])  # it points at the rule itself
    assert ending["text"].startswith(ending["reason"][0].upper())
    assert f"{ending['rule']} at {ending['rule_source']}: {ending['citation']}" in ending["text"]
    assert service.view(game["game_id"], None)["outcome"]["reason"] == ending["reason"]


def test_processes_sharing_a_store_name_the_same_cards_as_one_folding_the_log_anew(tmp_path):
    from api.app import GameService
    from api.store import EventStore

    url = f"sqlite:///{tmp_path / 'shared.db'}"
    first, second = GameService(EventStore(url)), GameService(EventStore(url))
    game = first.create_game("balloon_cup", seats=2, seed="two processes")
    gid, rng = game["game_id"], random.Random(4)
    for _ in range(6):
        play_service(first, game, rng, moves=2)
        for seat in (0, 1, None):  # read here, so this process keeps the names move by move from now on
            first.events(gid, game["tokens"][seat] if seat is not None else None)
        play_service(second, game, rng, moves=3)  # moves this process learns from the store (caught up)
    for seat in (0, 1, None):
        token = game["tokens"][seat] if seat is not None else None
        anew = GameService(EventStore(url)).events(gid, token)  # a third process: the log folded once
        assert not anew["finished"]
        assert first.events(gid, token)["texts"] == second.events(gid, token)["texts"] == anew["texts"]
        # and every card placed is named for every reader, one that completed a flight and went
        # face down with it too: each lay face up on its tile
        places = [t for t, e in zip(anew["texts"], anew["events"]) if e["kind"] == "move" and e["body"]["move"] == "place"]
        assert places and not any("hidden component" in t for t in places), places


def test_a_card_face_up_only_within_its_own_move_is_named_for_every_reader(tmp_path):
    # seed and moves chosen so the 72nd move places a card that completes a flight, whose cards go
    # to the discard, which the draw then shuffles into the face-down deck: the card never lies
    # face up between two events, yet every reader saw it placed on its tile
    from api.app import GameService
    from api.store import EventStore

    url = f"sqlite:///{tmp_path / 'ludex.db'}"
    live = GameService(EventStore(url))
    game = live.create_game("balloon_cup", seats=2, seed="flight 1")
    gid, rng = game["game_id"], random.Random(1)
    play_service(live, game, rng, moves=10)
    tokens = {seat: game["tokens"][seat] if seat is not None else None for seat in (0, 1, None)}
    for token in tokens.values():  # read now: this service keeps the names move by move from here
        live.events(gid, token)
    last = play_service(live, game, rng, moves=62)
    bodies = [e["body"] for e in live.export(gid)[-len(last["events"]):]]
    card = bodies[0]["args"]["card"]
    assert bodies[0]["move"] == "place" and any(
        b["kind"] == "chance" and b["node"] == "shuffle" and card in b["outcome"] for b in bodies)
    for seat, token in tokens.items():
        assert card not in {c["name"] for z in live.view(gid, token)["view"]["zones"].values()
                            for c in z.get("components") or ()}  # face down in the deck now
        folded = GameService(EventStore(url)).events(gid, token)  # a new process: the log folded once
        assert not folded["finished"] and live.events(gid, token)["texts"] == folded["texts"]
        places = [t for t, e in zip(folded["texts"], folded["events"]) if e["kind"] == "move" and e["body"]["move"] == "place"]
        assert f"places {card} on " in places[-1]
        assert not any("hidden component" in t for t in places), places
