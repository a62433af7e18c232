"""The OpenAPI document tells the truth: the published docs/openapi.json is what a running
service serves, its examples work when executed, every payload the service sends validates
against its model, and each operation lists exactly the errors it can return."""

from __future__ import annotations

import json
import random
import re
import sqlite3
from pathlib import Path

import httpx
import pytest
from pydantic import TypeAdapter
from service_harness import ROOT, Server, bearer, create_http_game

from api.app import GameService
from api.app.errors import ErrorCode
from api.http import models as m
from api.http.openapi import PUBLISHED, render
from api.store import EventStore


@pytest.fixture(scope="module")
def served(serve_sqlite) -> dict:
    return httpx.get(serve_sqlite.http + "/openapi.json", timeout=30).json()


def test_the_published_document_is_the_one_the_service_serves(served):
    published = PUBLISHED.read_text(encoding="utf-8")
    assert published == render(served), (
        "docs/openapi.json differs from what the service serves: run `make openapi` and commit it"
    )


def test_the_examples_work_when_executed(client, served):
    schemas = served["components"]["schemas"]
    create = schemas["CreateGameIn"]["examples"][0]
    r = client.post("/games", json=create)
    assert r.status_code == 201, r.text
    game = m.CreatedGameOut.model_validate(r.json())
    submit = schemas["SubmitMoveIn"]["examples"][0]
    r = client.post(f"/games/{game.game_id}/moves", json=submit, headers=bearer(game.tokens[0]))
    assert r.status_code == 200, r.text
    assert r.json()["events"][0]["body"]["move"] == submit["move"]["name"]
    check = schemas["CheckRulesetIn"]["examples"][0]
    assert client.post("/rulesets/check", json=check).status_code == 200


def test_every_error_example_uses_its_status_and_a_listed_code(served):
    for path, operations in served["paths"].items():
        for method, op in operations.items():
            for status, response in op["responses"].items():
                if not status.startswith("4"):
                    continue
                example = response["content"]["application/json"]["example"]
                assert m.ErrorOut.model_validate(example).error.code.value in response["description"], (method, path)


def _statuses(served: dict) -> dict[str, dict[int, str]]:
    out = {}
    for operations in served["paths"].values():
        for op in operations.values():
            out[op["operationId"]] = {
                int(s): r["description"] for s, r in op["responses"].items() if s.startswith("4")
            }
    return out


def _corrupt_game(server: Server) -> str:
    """A game the server has not seen, stored with a header whose pinned rules no longer match
    (written beside the server, with the append-only trigger dropped)."""
    store = EventStore(server.db_url)
    try:
        game_id = GameService(store).create_game("balloon_cup")["game_id"]
    finally:
        store.dispose()
    with sqlite3.connect(server.db_url.removeprefix("sqlite:///")) as db:
        db.execute("DROP TRIGGER IF EXISTS ludex_events_no_update")
        db.execute("UPDATE ludex_events SET body = json_set(body, '$.content_hash', 'tampered') "
                   "WHERE game_id = ? AND version = 1", (game_id,))
    return game_id


def test_each_operation_lists_exactly_the_errors_it_returns(server, client, served):
    g = create_http_game(client, "balloon_cup", seed="example")
    gid, t0, t1 = g["game_id"], bearer(g["tokens"][0]), bearer(g["tokens"][1])
    bad, missing, basic = bearer("nope"), "/games/" + "0" * 32, {"Authorization": "Basic x"}
    raw = {"content": b"{not json", "headers": {"content-type": "application/json"}}
    huge = {"json": {"text": "x" * (2 << 20)}}
    surrogate = {"content": b'{"text": "game \\ud800"}', "headers": {"content-type": "application/json"}}
    move = {"move": {"name": "place", "args": {"card": "yellow-2", "t": "tile3", "s": 0}}, "expected_version": 12}
    corrupt = _corrupt_game(server)
    requests = {
        "healthz": [("get", "/healthz", {})],
        "rulesets": [("get", "/rulesets", {})],
        "check_ruleset": [("post", "/rulesets/check", raw), ("post", "/rulesets/check", huge),
                          ("post", "/rulesets/check", {"json": {}}),
                          ("post", "/rulesets/check", {"json": {"text": "x" * 200_000}}),
                          ("post", "/rulesets/check", surrogate)],
        "create_game": [
            ("post", "/games", {"json": {"ruleset": "balloon_cup", "seats": 3}}),
            ("post", "/games", {"json": {"ruleset": "balloon_cup", "variants": ["nope"]}}),
            ("post", "/games", {"json": {"ruleset": "no_such_game"}}),
            ("post", "/games", {**huge, "json": {"ruleset": "x" * (2 << 20)}}),
            ("post", "/games", {"json": {"seats": 2}}),
        ],
        "view": [("get", f"/games/{gid}/view", {"headers": bad}), ("get", f"{missing}/view", {}),
                 ("get", f"/games/{corrupt}/view", {})],
        "legal_moves": [("get", f"/games/{gid}/legal-moves", {}), ("get", f"{missing}/legal-moves", {"headers": t0}),
                        ("get", f"/games/{gid}/legal-moves", {"headers": basic}),
                        ("get", f"/games/{corrupt}/legal-moves", {"headers": t0})],
        "submit_move": [
            ("post", f"/games/{gid}/moves", {"json": move, "headers": t1}),  # not your turn
            ("post", f"/games/{gid}/moves", {"json": {**move, "seat": 1}, "headers": t0}),  # wrong seat
            ("post", f"/games/{gid}/moves", {"json": {**move, "expected_version": 3}, "headers": t0}),
            ("post", f"/games/{gid}/moves", {"json": {**move, "move": {"name": "place", "args": {}}}, "headers": t0}),
            ("post", f"/games/{gid}/moves", {"json": {**move, "move": {"name": ""}}, "headers": t0}),
            ("post", f"/games/{gid}/moves", {"json": move}),
            ("post", f"/games/{gid}/moves", {**raw}),
            ("post", f"/games/{gid}/moves", {**huge, "headers": t0}),
            ("post", f"{missing}/moves", {"json": move, "headers": t0}),
            ("post", f"/games/{corrupt}/moves", {"json": move, "headers": t0}),
        ],
        "events": [("get", f"/games/{gid}/events?after=-1", {}), ("get", f"{missing}/events", {}),
                   ("get", f"/games/{gid}/events", {"headers": bad}), ("get", f"/games/{corrupt}/events", {})],
        "replay": [("get", f"/games/{gid}/replay?at=999", {}), ("get", f"/games/{gid}/replay", {}),
                   ("get", f"{missing}/replay?at=1", {}), ("get", f"/games/{gid}/replay?at=1", {"headers": bad}),
                   ("get", f"/games/{corrupt}/replay?at=1", {})],
        "audit": [("get", f"/games/{gid}/audit", {}), ("get", f"{missing}/audit", {})],
        "receipt": [("get", f"/games/{gid}/receipt", {}), ("get", f"{missing}/receipt", {}),
                    ("get", f"/games/{corrupt}/receipt", {})],
        "public_keys": [("get", "/keys", {})],
        "stream_ticket": [("post", f"/games/{gid}/stream-ticket", {}), ("post", f"{missing}/stream-ticket", {"headers": t0}),
                          ("post", f"/games/{gid}/stream-ticket", {"headers": bad}),
                          ("post", f"/games/{corrupt}/stream-ticket", {"headers": t0})],
        "stream": [("get", f"/games/{gid}/stream?after=x", {}),
                   ("get", f"/games/{gid}/stream", {"headers": {"Last-Event-ID": "x"}}), ("get", f"{missing}/stream", {}),
                   ("get", f"/games/{gid}/stream", {"headers": bad}), ("get", f"/games/{corrupt}/stream", {})],
    }
    documented = _statuses(served)
    assert set(requests) == set(documented)
    for op, calls in requests.items():
        seen: dict[int, set[str]] = {}
        for method, url, kwargs in calls:
            r = client.request(method.upper(), url, **kwargs)
            if r.status_code < 400:
                continue
            error = m.ErrorOut.model_validate(r.json()).error
            seen.setdefault(r.status_code, set()).add(error.code.value)
        assert set(seen) == set(documented[op]), (op, seen)
        for status, codes in seen.items():
            for code in codes:
                assert f"`{code}`" in documented[op][status], (op, status, code)


def test_every_code_the_api_raises_is_in_the_enum():
    raised = set()
    for path in (ROOT / "api").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        raised |= set(re.findall(r'(?:Error|NotFound|Request|Unauthenticated|Forbidden|Conflict)\(\s*"([a-z_]+)"', text))
        raised |= set(re.findall(r'_error\(\d+, "([a-z_]+)"', text))
        raised |= set(re.findall(r'check_(?:text|json)\([^()]*, "([a-z_]+)"', text))
    assert raised, "the pattern found no error codes in api/"
    assert raised <= {c.value for c in ErrorCode}, raised - {c.value for c in ErrorCode}


def test_every_payload_of_a_whole_game_validates_against_its_model(client):
    rng = random.Random(7)
    game = m.CreatedGameOut.model_validate(create_http_game(client, "balloon_cup", seed="typed"))
    TypeAdapter(list[m.RulesetOut]).validate_python(client.get("/rulesets").json())
    kinds = set()
    while True:
        view = m.ViewOut.model_validate(client.get(f"/games/{game.game_id}/view").json())
        if view.terminal:
            break
        seat = rng.choice(view.decision.seats)
        m.ViewOut.model_validate(client.get(f"/games/{game.game_id}/view", headers=bearer(game.tokens[seat])).json())
        legal = m.LegalMovesOut.model_validate(
            client.get(f"/games/{game.game_id}/legal-moves", headers=bearer(game.tokens[seat])).json())
        move = rng.choice(legal.moves)
        r = client.post(f"/games/{game.game_id}/moves", headers=bearer(game.tokens[seat]),
                        json={"move": move.model_dump(), "expected_version": legal.version})
        done = m.MoveOut.model_validate(r.json())
        assert done.receipt.game_id == game.game_id
        kinds |= {e.kind for e in done.events}
    assert view.outcome is not None and view.view.outcome is not None
    log = m.EventsOut.model_validate(client.get(f"/games/{game.game_id}/events").json())
    assert log.finished and {type(e).__name__ for e in log.events} == {
        "HeaderEvent", "MoveEvent", "ChanceEvent", "RevealEvent"} | ({"ShowEvent"} if "show" in kinds else set())
    assert all(e.hash for e in log.events)
    audit = m.AuditOut.model_validate(client.get(f"/games/{game.game_id}/audit").json())
    assert audit.ok, audit
    m.ReplayOut.model_validate(client.get(f"/games/{game.game_id}/replay?at=20").json())
    m.ReceiptOut.model_validate(client.get(f"/games/{game.game_id}/receipt").json())
    m.PublicKeysOut.model_validate(client.get("/keys").json())


def test_openapi_types_the_payloads(served):
    schemas = served["components"]["schemas"]
    assert "additionalProp1" not in json.dumps(served)
    assert schemas["ViewOut"]["properties"]["view"] == {"$ref": "#/components/schemas/GameView"}
    assert schemas["ErrorBody"]["properties"]["code"] == {"$ref": "#/components/schemas/ErrorCode", "description": "Stable machine code."}
    assert set(schemas["ErrorCode"]["enum"]) == {c.value for c in ErrorCode}
    event_kinds = schemas["EventsOut"]["properties"]["events"]["items"]["discriminator"]["mapping"]
    assert set(event_kinds) == {"header", "move", "chance", "show", "reveal", "commit", "opening"}
    assert not Path(ROOT / "docs" / "openapi.json").read_text().count("additionalProp1")
