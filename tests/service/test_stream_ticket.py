"""Browsers: stream tickets (a seat token traded for a short-lived, read-only ticket that can go
in a URL) and CORS (`--cors-origin`), through the HTTP face in process."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from api.app import GameService
from api.app.tokens import new_ticket, seat_for_ticket
from api.http import create_app
from api.store import EventStore

ORIGIN = "http://play.example"


@pytest.fixture
def service(tmp_path):
    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    yield GameService(store)
    store.dispose()


@pytest.fixture
def client(service):
    with TestClient(create_app(service, cors_origins=[ORIGIN])) as c:
        yield c


def _ticket(client, game, seat=0) -> str:
    r = client.post(f"/games/{game['game_id']}/stream-ticket", headers={"Authorization": f"Bearer {game['tokens'][seat]}"})
    assert r.status_code == 200, r.text
    assert r.json()["seat"] == seat
    return r.json()["ticket"]


def _code(r) -> tuple[int, str]:
    return r.status_code, r.json()["error"]["code"]


def test_a_ticket_reads_as_its_seat_and_never_acts(client):
    game = client.post("/games", json={"ruleset": "balloon_cup", "seed": "example"}).json()
    ticket = _ticket(client, game)
    as_ticket = client.get(f"/games/{game['game_id']}/view", headers={"Authorization": f"Bearer {ticket}"}).json()
    assert as_ticket["seat"] == 0 and as_ticket["view"]["zones"]["hand[0]"]["components"]
    move = {"move": {"name": "place", "args": {"card": "yellow-2", "t": "tile3", "s": 0}}, "expected_version": 12}
    r = client.post(f"/games/{game['game_id']}/moves", json=move, headers={"Authorization": f"Bearer {ticket}"})
    assert _code(r) == (401, "token_required")
    r = client.get(f"/games/{game['game_id']}/legal-moves", headers={"Authorization": f"Bearer {ticket}"})
    assert _code(r) == (401, "token_required")


def test_the_stream_refuses_forged_foreign_and_expired_tickets(client, service):
    game = client.post("/games", json={"ruleset": "balloon_cup"}).json()
    other = client.post("/games", json={"ruleset": "balloon_cup"}).json()
    ticket = _ticket(client, game, seat=1)
    forged = ticket[:-4] + ("0000" if not ticket.endswith("0000") else "1111")
    for bad in (forged, _ticket(client, other, seat=1), "t1.x", "t1.9.9.9"):
        r = client.get(f"/games/{game['game_id']}/stream", params={"ticket": bad})
        assert _code(r) == (401, "bad_ticket"), bad
    hashes = service._live(game["game_id"]).token_hashes
    old, expires = new_ticket(game["game_id"], 1, hashes[1], now=1000.0)
    assert seat_for_ticket(old, game["game_id"], hashes, now=expires) == 1
    assert seat_for_ticket(old, game["game_id"], hashes, now=expires + 1) == "ticket_expired"
    r = client.get(f"/games/{game['game_id']}/stream", params={"ticket": old})
    assert _code(r) == (401, "ticket_expired")


def test_cors_answers_preflights_from_the_configured_origin_only(client, service):
    preflight = {"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization,content-type"}
    r = client.options("/games", headers={"Origin": ORIGIN, **preflight})
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == ORIGIN
    assert "authorization" in r.headers["access-control-allow-headers"].lower()
    r = client.options("/games", headers={"Origin": "http://elsewhere.example", **preflight})
    assert r.status_code == 400 and "access-control-allow-origin" not in r.headers
    r = client.get("/rulesets", headers={"Origin": ORIGIN})
    assert r.headers["access-control-allow-origin"] == ORIGIN
    with TestClient(create_app(service)) as same_origin_only:
        r = same_origin_only.options("/games", headers={"Origin": ORIGIN, **preflight})
        assert r.status_code == 405 and "access-control-allow-origin" not in r.headers
