"""A component is named once it is public (issue 29): a card a seat was shown only as its slot
(`hand[1]@0`) is named in that seat's sentences once its move laid it where the seat sees it, in
every face of a running game (HTTP events and move answers, the server-sent stream, gRPC, the
viewer's data), and after a restart too; a card still hidden from a seat never appears in any of
its sentences. Against a real `ludex serve` process with a designer's ruleset folder."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from httpx_sse import connect_sse
from service_harness import Server, bearer, create_http_game, grpc_auth, grpc_stub

# Each seat holds three gems, seen by its seat only; `lay` puts one face up, `keep` face down
# where only its seat sees it, and `show` lays a kept one face up later.
GEMS = Path(__file__).resolve().parents[1] / "engine" / "gems.ludex"


@pytest.fixture
def server(tmp_path):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "gems.ludex").write_text(GEMS.read_text(encoding="utf-8"))
    s = Server(f"sqlite:///{tmp_path / 'ludex.db'}", tmp_path / "server.log", ("--rulesets", str(folder))).start()
    yield s
    s.stop()


def _headers(tokens, seat):
    return bearer(tokens[seat]) if seat is not None else {}


def _faces(server, gid, tokens, seat):
    """Every sentence of the game's events `seat` (None: a spectator) is given, by face: HTTP
    events, the server-sent stream, gRPC ListEvents and StreamEvents, the viewer's data."""
    with httpx.Client(base_url=server.http, timeout=30) as client:
        listed = client.get(f"/games/{gid}/events", headers=_headers(tokens, seat)).json()
        with connect_sse(client, "GET", f"/games/{gid}/stream", headers=_headers(tokens, seat)) as source:
            streamed = []
            for message in source.iter_sse():
                streamed.append(json.loads(message.data))
                if len(streamed) == len(listed["events"]):
                    break
        viewer = client.get(f"/games/{gid}/viewer/data", headers=_headers(tokens, seat)).json()
    pb2, stub, channel = grpc_stub(server.grpc_target)
    try:
        metadata = grpc_auth(tokens[seat]) if seat is not None else ()
        grpc_listed = stub.ListEvents(pb2.ListEventsRequest(game_id=gid), metadata=metadata)
        stream = stub.StreamEvents(pb2.StreamEventsRequest(game_id=gid), metadata=metadata)
        grpc_streamed = [next(stream).text for _ in grpc_listed.events]
        stream.cancel()
    finally:
        channel.close()
    assert [{k: v for k, v in e.items() if k != "text"} for e in streamed] == listed["events"]  # the records as listed
    return {
        "http": listed["texts"],
        "stream": [e["text"] for e in streamed],
        "grpc": [e.text for e in grpc_listed.events],
        "grpc stream": grpc_streamed,
        "viewer": viewer["texts"],
    }, listed["events"], viewer


def _hands(server, gid, tokens):
    with httpx.Client(base_url=server.http, timeout=30) as client:
        return [[c["name"] for c in client.get(f"/games/{gid}/view", headers=bearer(tokens[s])).json()
                 ["view"]["zones"][f"hand[{s}]"]["components"]] for s in (0, 1)]


def _move(server, gid, tokens, seat, name, gem):
    with httpx.Client(base_url=server.http, timeout=30) as client:
        version = client.get(f"/games/{gid}/view").json()["version"]
        r = client.post(f"/games/{gid}/moves", json={"move": {"name": name, "args": {"c": gem}}, "expected_version": version},
                        headers=bearer(tokens[seat]))
        assert r.status_code == 200, r.text
        return r.json()


def test_a_gem_is_named_once_public_and_a_hidden_one_never_in_any_face(server):
    with httpx.Client(base_url=server.http, timeout=30) as client:
        game = create_http_game(client, "gems", seed="named once public")
    gid, tokens = game["game_id"], game["tokens"]
    (a, c, e), (b, d, f) = _hands(server, gid, tokens)
    _move(server, gid, tokens, 0, "keep", a)  # a: face down, seen by seat 0 only
    laid_b = _move(server, gid, tokens, 1, "lay", b)  # b: face up
    assert laid_b["texts"][0] == f"Seat 1: lay (c {b})"  # its own move, named as always
    _move(server, gid, tokens, 0, "lay", c)  # c: face up
    _move(server, gid, tokens, 1, "keep", d)  # d: face down, seen by seat 1 only
    shown_a = _move(server, gid, tokens, 0, "show", a)  # a: face up now, from the stash

    told = {seat: _faces(server, gid, tokens, seat) for seat in (0, 1, None)}
    for seat, (faces, events, viewer) in told.items():
        first = next(iter(faces.values()))
        assert all(texts == first for texts in faces.values()), (seat, faces)  # one sentence in every face
        moves = {ev["body"]["ply"]: (ev, text) for ev, text in zip(events, first) if ev["kind"] == "move"}
        by_move = [moves[p] for p in sorted(moves)]
        keep_a, lay_b, lay_c, keep_d, show_a = by_move
        # laid face up: named by everyone, though the others were shown its slot
        assert lay_b[1] == f"Seat 1: lay (c {b})" and lay_c[1] == f"Seat 0: lay (c {c})"
        assert show_a[1] == f"Seat 0: show (c {a})"
        if seat != 1:
            assert lay_b[0]["body"]["args"]["c"].startswith("hand[1]@")  # the record keeps the slot it showed
        # kept face down: only its own seat reads the gem; the others read a slot, for good (a
        # gem laid later from the stash is not tied to the move that kept it)
        assert keep_a[1] == (f"Seat 0: keep (c {a})" if seat == 0 else "Seat 0: keep (c a hidden component at hand[0]@0)")
        assert (d in keep_d[1]) == (seat == 1)
        if seat != 1:  # d is still hidden from this reader: no face names it
            assert not any(d in text for texts in faces.values() for text in texts), seat
            assert d not in json.dumps([viewer["events"][1:], viewer["texts"], viewer["named"]])  # (the header's rule text lists every gem)
        if seat == 0:  # the viewer's details name the slot the sentence names
            assert viewer["named"][viewer["events"].index(lay_b[0])] == {"c": b}
    assert shown_a["texts"][0] == f"Seat 0: show (c {a})"

    # A restarted server folds the log again and tells the same sentences.
    server.stop()
    server.start()
    for seat in (0, 1, None):
        assert _faces(server, gid, tokens, seat)[0] == told[seat][0]

    # The game plays on to its end; the log audits, its records and hashes untouched by the sentences.
    _move(server, gid, tokens, 1, "lay", f)
    last = _move(server, gid, tokens, 0, "lay", e)
    assert last["terminal"]
    with httpx.Client(base_url=server.http, timeout=30) as client:
        assert client.get(f"/games/{gid}/audit").json()["ok"]
        done = client.get(f"/games/{gid}/events").json()
        assert all("text" not in ev for ev in done["events"])
        assert f"Seat 1: keep (c {d})" in done["texts"]  # the whole log is public once the game is over
