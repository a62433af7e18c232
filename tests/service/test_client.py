"""`ludex.client` against a real `ludex serve`: a whole game with the sync client while another
thread streams it, the async client doing the same, retries on a stale version, typed errors,
and an export that `ludex audit` verifies."""

from __future__ import annotations

import asyncio
import json
import random
import threading
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from service_harness import run_cli, write_log

from api.http import models as m
from ludex.client import AsyncClient, Client, LudexError


@pytest.fixture
def ludex(serve_sqlite):
    with Client(serve_sqlite.http) as client:
        yield client


def test_a_whole_game_with_the_sync_client_streamed_as_it_is_played(ludex, tmp_path):
    game = ludex.create_game("balloon_cup", seed="client")
    streamed: list = []
    follower = threading.Thread(target=lambda: streamed.extend(ludex.stream(game.game_id)))
    follower.start()
    rng = random.Random(1)
    while not (view := ludex.view(game.game_id)).terminal:
        seat = rng.choice(view.decision.seats)
        legal = ludex.legal_moves(game.game_id, game.tokens[seat])
        done = ludex.submit(game.game_id, game.tokens[seat], rng.choice(legal.moves))
        assert isinstance(done.events[0], m.MoveEvent) and done.events[0].body.seat == seat
    follower.join(30)
    assert not follower.is_alive(), "the stream did not end with the game"
    assert view.outcome is not None and view.outcome.kind in ("win", "draw", "scores")

    log = ludex.export(game.game_id)
    assert [e.version for e in streamed] == [e["version"] for e in log] == list(range(1, len(log) + 1))
    assert isinstance(streamed[0], m.HeaderEvent) and isinstance(streamed[-1], m.RevealEvent)
    # each streamed event comes with its sentence as the spectator read it then: a card placed
    # from a hand it could not see is named, since it lay face up once placed (even one that
    # completed a flight, discarded face down by the same move's scoring)
    assert all(e.text for e in streamed) and streamed[0].text.startswith("A game of balloon_cup for 2 seats begins")
    places = [e for e in streamed if isinstance(e, m.MoveEvent) and e.body.move == "place"]
    assert places and all(e.body.args["card"].startswith("hand[") for e in places)
    assert all(f"places {log[e.version - 1]['body']['args']['card']} on " in e.text for e in places)
    assert ludex.audit(game.game_id).verified
    done = run_cli("audit", str(write_log(tmp_path / "log.jsonl", log)))
    assert "passed   hash_chain" in done.stdout and "failed" not in done.stdout, done.stdout


def test_the_async_client_plays_and_streams(serve_sqlite):
    async def play() -> tuple[list, m.ViewOut]:
        async with AsyncClient(serve_sqlite.http) as ludex:
            game = await ludex.create_game("hanabi", seats=2, seed="async")

            async def follow() -> list:
                return [event async for event in ludex.stream(game.game_id)]

            follower = asyncio.create_task(follow())
            rng = random.Random(2)
            while not (view := await ludex.view(game.game_id)).terminal:
                seat = rng.choice(view.decision.seats)
                legal = await ludex.legal_moves(game.game_id, game.tokens[seat])
                await ludex.submit(game.game_id, game.tokens[seat], rng.choice(legal.moves), legal.version)
            return await asyncio.wait_for(follower, 30), view

    # a thread of its own: a session-scoped Playwright browser in this worker keeps an event loop
    # running in the main thread, where asyncio.run() refuses to start
    with ThreadPoolExecutor(1) as pool:
        streamed, view = pool.submit(asyncio.run, play()).result()
    assert view.terminal and streamed[-1].kind == "reveal" and streamed[-1].body.outcome == view.outcome


def test_a_stale_version_is_retried_at_the_current_one(ludex):
    game = ludex.create_game("balloon_cup", seed="example")
    first = ludex.legal_moves(game.game_id, game.tokens[0])
    ludex.submit(game.game_id, game.tokens[0], first.moves[0])
    ludex.submit(game.game_id, game.tokens[1], ludex.legal_moves(game.game_id, game.tokens[1]).moves[0])
    move = ludex.legal_moves(game.game_id, game.tokens[0]).moves[0]
    impatient = Client(http=ludex.http, retries=0)
    with pytest.raises(LudexError) as stale:
        impatient.submit(game.game_id, game.tokens[0], move, first.version)
    assert stale.value.status == 409 and stale.value.code == "stale_version"
    assert stale.value.body["current_version"] == ludex.view(game.game_id).version
    done = ludex.submit(game.game_id, game.tokens[0], move, first.version)  # retried at the current version
    assert done.events[0].body.move == move.name


def test_errors_are_typed(ludex):
    with pytest.raises(LudexError) as missing:
        ludex.view("0" * 32)
    assert (missing.value.status, missing.value.code) == (404, "game_not_found")
    game = ludex.create_game("balloon_cup", seed="example")
    with pytest.raises(LudexError) as illegal:
        ludex.submit(game.game_id, game.tokens[0], {"name": "place", "args": {}})
    assert illegal.value.status == 422 and illegal.value.code == "illegal_move"
    with pytest.raises(LudexError) as running:
        ludex.export(game.game_id)
    assert running.value.code == "game_running"
    assert "balloon_cup" in {r.name for r in ludex.rulesets()}


def test_the_stream_skips_messages_without_data(ludex):
    """A message with no data line (an `id:` alone, as the stream once delivered under load in
    a merge train) is not an event: the stream goes on with the next one."""
    game = ludex.create_game("balloon_cup", seed="no data")
    event = ludex.http.get(f"/games/{game.game_id}/events").json()["events"][0]
    body = (b"id: 1\r\n\r\n: ping\r\n\r\nid: 1\r\ndata: " + json.dumps(event).encode() + b"\r\n\r\n")
    transport = httpx.MockTransport(lambda _request: httpx.Response(
        200, headers={"content-type": "text/event-stream"}, content=body))
    client = Client(http=httpx.Client(base_url="http://ludex.test", transport=transport))
    try:
        assert [e.version for e in client.stream("g")] == [1]
    finally:
        client.http.close()
