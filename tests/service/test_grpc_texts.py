"""gRPC tells each event and legal move as the same sentence as the HTTP API (`text` beside the
body in `Event`, in each listed `Move`), told as the caller may see it, against a real server;
and the .proto keeps every field number it had, so older clients still read the messages."""

from __future__ import annotations

import random

import pytest
from service_harness import bearer, create_http_game, grpc_auth, grpc_stub, play_grpc


@pytest.fixture
def rpc(server):
    pb2, stub, channel = grpc_stub(server.grpc_target)
    yield pb2, stub
    channel.close()


def test_events_and_legal_moves_carry_the_http_sentences(rpc, client):
    pb2, stub = rpc
    game = create_http_game(client, "balloon_cup", seed="grpc texts")
    gid, tokens = game["game_id"], game["tokens"]
    rng = random.Random(3)
    for _ in range(4):  # each seat places cards: the other sees them only as slots while chosen
        seat = client.get(f"/games/{gid}/view").json()["decision"]["seats"][0]
        http_legal = client.get(f"/games/{gid}/legal-moves", headers=bearer(tokens[seat])).json()
        legal = stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=gid), metadata=grpc_auth(tokens[seat]))
        assert [m.text for m in legal.moves] == http_legal["texts"] and all(http_legal["texts"])
        move = legal.moves[rng.randrange(len(legal.moves))]
        moved = stub.SubmitMove(pb2.SubmitMoveRequest(game_id=gid, move=move, expected_version=legal.version),
                                metadata=grpc_auth(tokens[seat]))
        assert moved.events[0].text == move.text  # the move's sentence is its event's
        http_events = client.get(f"/games/{gid}/events", params={"after": legal.version},
                                 headers=bearer(tokens[seat])).json()
        assert [e.text for e in moved.events] == http_events["texts"]
    for seat in (0, 1, None):  # each seat and a spectator: the same sentences as over HTTP
        metadata = grpc_auth(tokens[seat]) if seat is not None else ()
        listed = stub.ListEvents(pb2.ListEventsRequest(game_id=gid), metadata=metadata)
        over_http = client.get(f"/games/{gid}/events", headers=bearer(tokens[seat]) if seat is not None else {}).json()
        assert [e.text for e in listed.events] == over_http["texts"]
        assert listed.events[0].text.startswith("A game of balloon_cup for 2 seats begins")
        if seat is not None:  # the other seat's card, shown as its slot in its hidden hand, is named: it lies face up
            theirs = [(e, t) for e, t in zip(over_http["events"], over_http["texts"])
                      if e["kind"] == "move" and e["body"]["move"] == "place" and e["body"]["seat"] == 1 - seat]
            assert theirs and all(e["body"]["args"]["card"].startswith(f"hand[{1 - seat}]@") for e, _ in theirs)
            assert not any("hidden component" in t for _, t in theirs)
        stream = stub.StreamEvents(pb2.StreamEventsRequest(game_id=gid, after=listed.version - 3), metadata=metadata)
        streamed = [next(stream).text for _ in range(3)]
        stream.cancel()
        assert streamed == over_http["texts"][-3:]
    replay = stub.Replay(pb2.ReplayRequest(game_id=gid, at=listed.version), metadata=grpc_auth(tokens[0]))
    http_replay = client.get(f"/games/{gid}/replay", params={"at": listed.version}, headers=bearer(tokens[0])).json()
    assert [m.text for m in replay.legal_moves] == http_replay["legal_texts"]


# Every field number the messages that now carry `text` had before it (ludex.proto at f09976c):
# a field renumbered would be read as another by older clients.
FIELDS_BEFORE = {
    "Move": {"name": 1, "args": 2},
    "Event": {"game_id": 1, "version": 2, "kind": 3, "prev_hash": 5, "hash": 6, "header": 8, "runtime": 9, "reveal": 10},
}


def test_text_is_a_new_field_number_and_older_messages_still_parse(rpc):
    pb2, _ = rpc
    for message, before in FIELDS_BEFORE.items():
        fields = {f.name: f.number for f in pb2.DESCRIPTOR.message_types_by_name[message].fields}
        assert {k: fields[k] for k in before} == before
        assert fields["text"] not in before.values()
    assert {f.name: f.number for f in pb2.Move.DESCRIPTOR.fields}["text"] == 3
    assert {f.name: f.number for f in pb2.Event.DESCRIPTOR.fields}["text"] == 11
    old_event = pb2.Event(game_id="g", version=2, kind="move").SerializeToString()  # as an older server wrote it
    assert pb2.Event.FromString(old_event).text == "" and pb2.Event.FromString(old_event).version == 2
    new_move = pb2.Move(name="place", text="Seat 0: place").SerializeToString()
    assert pb2.Move.FromString(new_move).name == "place"


def test_a_finished_game_says_why_it_ended_over_grpc_as_over_http(rpc, client):
    pb2, stub = rpc
    game = create_http_game(client, "hanabi", seats=2, seed="grpc ending")
    gid, tokens = game["game_id"], game["tokens"]
    running = stub.GetView(pb2.GetViewRequest(game_id=gid))
    assert not running.HasField("ending")  # absent while the game runs, as HTTP's null
    play_grpc(pb2, stub, gid, tokens, random.Random(5))
    over_http = client.get(f"/games/{gid}/view").json()["ending"]
    ended = stub.GetView(pb2.GetViewRequest(game_id=gid)).ending
    assert over_http is not None and ended.text == over_http["text"]
    assert (ended.rule, ended.rule_source, ended.citation, ended.source, ended.reason) == (
        over_http["rule"], over_http["rule_source"], over_http["citation"], over_http["source"], over_http["reason"])
    assert list(ended.winners) == over_http["winners"] and set(ended.scores) == set(over_http["scores"])
    assert ended.rule.split()[0] in ("trigger", "move") and ended.rule_source.startswith("hanabi/")
    last = stub.ListEvents(pb2.ListEventsRequest(game_id=gid)).version
    replayed = stub.Replay(pb2.ReplayRequest(game_id=gid, at=last), metadata=grpc_auth(tokens[0]))
    assert replayed.ending.text == over_http["text"]
    early = stub.Replay(pb2.ReplayRequest(game_id=gid, at=2), metadata=grpc_auth(tokens[0]))
    assert not early.HasField("ending")
