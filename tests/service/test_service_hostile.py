"""Hostile requests against a real server (issue 14): each gets a typed 4xx (gRPC
INVALID_ARGUMENT) with a reason, and leaves the store exactly as it was."""

from __future__ import annotations

import json

import grpc
import httpx
import pytest
import sqlalchemy as sa
from service_harness import Server, bearer, create_http_game, grpc_auth, grpc_error, grpc_stub

from api.app.inputs import MAX_JSON_DEPTH
from api.app.service import MAX_CHECK_TEXT
from dsl.parser import MAX_NESTING


@pytest.fixture
def game(client):
    """A Balloon Cup game, its seat to move, that seat's headers and the current version."""
    g = create_http_game(client, "balloon_cup", seed="hostile")
    view = client.get(f"/games/{g['game_id']}/view").json()
    seat = view["decision"]["seats"][0]
    return {**g, "seat": seat, "headers": bearer(g["tokens"][seat]), "version": view["version"]}


def _store(server: Server) -> tuple:
    """Everything the store holds: (games rows, events rows)."""
    engine = sa.create_engine(server.db_url)
    try:
        with engine.connect() as conn:
            games = conn.execute(sa.text("SELECT * FROM ludex_games ORDER BY game_id")).all()
            events = conn.execute(sa.text("SELECT * FROM ludex_events ORDER BY game_id, version")).all()
    finally:
        engine.dispose()
    return games, events


def _refused(r: httpx.Response, status: int, code: str) -> dict:
    assert r.status_code == status, r.text
    body = r.json()["error"]
    assert body["code"] == code, body
    assert body["message"] and body["reason"], body
    return body


def _post_raw(client: httpx.Client, path: str, raw: bytes, headers: dict | None = None) -> httpx.Response:
    return client.post(path, content=raw, headers={"content-type": "application/json", **(headers or {})})


def _move_body(name: str, args: str, version: int) -> bytes:
    # Raw JSON text: a lone surrogate can only be written as an escape, which json.dumps
    # would refuse to produce from a Python str.
    return b'{"move": {"name": "%s", "args": %s}, "expected_version": %d}' % (name.encode(), args.encode(), version)


@pytest.mark.parametrize("name,args,field", [
    ("\\ud800", "{}", "move name"),
    ("place", '{"card": "\\udc00x"}', "move args"),
    ("place", '{"\\ud800": 1}', "move args"),
])
def test_lone_surrogates_in_a_move_are_refused(server, client, game, name, args, field):
    before = _store(server)
    r = _post_raw(client, f"/games/{game['game_id']}/moves", _move_body(name, args, game["version"]), game["headers"])
    body = _refused(r, 400, "bad_move")
    assert body["field"] == field and "surrogate" in body["message"]
    assert _store(server) == before


@pytest.mark.parametrize("raw,field", [
    (b'{"text": "game g\\ud800"}', "text"),
    (b'{"text": "game g", "filename": "x\\udc00.ludex"}', "filename"),
])
def test_lone_surrogates_in_a_ruleset_check_are_refused(client, raw, field):
    body = _refused(_post_raw(client, "/rulesets/check", raw), 400, "bad_text")
    assert body["field"] == field


def test_a_surrogate_pair_is_ordinary_text(client):
    r = _post_raw(client, "/rulesets/check", b'{"text": "game g \\"\\ud83c\\udfb2\\"", "filename": "\\ud83c\\udfb2"}')
    assert r.status_code == 200 and r.json()["diagnostics"][0]["file"] in ("\U0001f3b2", "<rules>")


@pytest.mark.parametrize("value", ["²".encode(), "٣".encode(), b"9" * 5000, b"12a", b"-1"])
def test_a_bad_last_event_id_is_refused(client, game, value):
    with client.stream("GET", f"/games/{game['game_id']}/stream", headers={"Last-Event-ID": value}) as r:
        r.read()
        _refused(r, 400, "bad_last_event_id")


def test_rule_text_nested_50000_deep_is_a_diagnostic(client):
    text = 'game g "G"\nconst deep = ' + "-" * 50_000 + "1\n"
    r = client.post("/rulesets/check", json={"text": text, "filename": "deep.ludex"})
    assert r.status_code == 200, r.text
    d = r.json()["diagnostics"]
    assert r.json()["ok"] is False
    assert [x["message"] for x in d] == [f"syntax error: nested more than {MAX_NESTING} levels deep"]
    assert (d[0]["file"], d[0]["line"]) == ("deep.ludex", 2)


def test_a_798_kib_rule_text_is_refused_as_too_large(server, client):
    text = ('game g "G"\nconst deep = ' + "-" * (798 * 1024))[: 798 * 1024]
    body = _refused(client.post("/rulesets/check", json={"text": text}), 413, "text_too_large")
    assert str(MAX_CHECK_TEXT) in body["message"]


@pytest.mark.parametrize("seed", ["a\x00b", "\x00", "tab\there", "x\ud800"])
def test_seeds_with_control_characters_or_surrogates_are_refused(server, client, seed):
    before = _store(server)
    raw = json.dumps({"ruleset": "balloon_cup", "seed": seed}).encode()
    body = _refused(_post_raw(client, "/games", raw), 400, "bad_seed")
    assert body["field"] == "seed"
    assert _store(server) == before


@pytest.mark.parametrize("value", [0, -1, 10, 2**64])
def test_out_of_range_options_are_refused_with_the_option_name(server, client, value):
    before = _store(server)
    r = client.post("/games", json={"ruleset": "battle_line", "options": {"match_games": value}})
    body = _refused(r, 400, "bad_options")
    assert body["option"] == "match_games" and "match_games" in body["message"] and "1..9" in body["message"]
    assert _store(server) == before
    assert client.post("/games", json={"ruleset": "battle_line", "options": {"match_games": 9}}).status_code == 201


def test_rulesets_list_option_ranges(client):
    options = {o["name"]: o for r in client.get("/rulesets").json() for o in r["options"]}
    assert options["match_games"]["range"] == {"min": 1, "max": 9}
    assert options["three_for_one"]["range"] is None


def test_deep_json_in_a_move_or_options_is_refused(server, client, game):
    before = _store(server)
    deep = "[" * (MAX_JSON_DEPTH + 1) + "]" * (MAX_JSON_DEPTH + 1)
    r = _post_raw(client, f"/games/{game['game_id']}/moves",
                  _move_body("place", '{"card": %s}' % deep, game["version"]), game["headers"])
    assert _refused(r, 400, "bad_move")["field"] == "move args"
    r = _post_raw(client, "/games", b'{"ruleset": "balloon_cup", "options": {"colour_limit": %s}}' % deep.encode())
    _refused(r, 400, "bad_options")
    assert _store(server) == before


@pytest.mark.parametrize("method,path", [
    ("DELETE", "/rulesets"), ("PUT", "/games"), ("GET", "/games"), ("PATCH", "/games/x/moves"),
    ("POST", "/games/x/view"), ("DELETE", "/healthz"),
])
def test_every_405_names_the_allowed_methods(client, method, path):
    r = client.request(method, path)
    assert r.status_code == 405 and r.json()["error"]["code"] == "method_not_allowed"
    assert r.headers["allow"] and method not in r.headers["allow"].split(", ")


def test_every_route_answers_405_with_allow_for_a_method_it_lacks(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path, ops in paths.items():
        allowed = {m.upper() for m in ops}
        concrete = path.replace("{game_id}", "x")
        wrong = next(m for m in ("DELETE", "PUT", "PATCH") if m not in allowed)
        r = client.request(wrong, concrete)
        assert r.status_code == 405, (path, r.status_code)
        assert set(r.headers["allow"].split(", ")) >= allowed, (path, r.headers["allow"])


# -- gRPC -------------------------------------------------------------------------------------

@pytest.fixture
def rpc(server):
    pb2, stub, channel = grpc_stub(server.grpc_target)
    yield pb2, stub
    channel.close()


def _grpc_refused(call, error_code: str) -> dict:
    with pytest.raises(grpc.RpcError) as info:
        call()
    assert info.value.code() == grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    body = grpc_error(info.value)
    assert body["code"] == error_code, body
    return body


def _nested(pb2, depth: int):
    """A ludex.v1.Value of `depth` lists, one inside the other."""
    value = pb2.Value(number=1)
    for _ in range(depth):
        value = pb2.Value(list=pb2.ValueList(items=[value]))
    return value


@pytest.mark.parametrize("depth", [40, 45])  # deeper than MAX_JSON_DEPTH; near protobuf's own nesting limit
def test_grpc_submit_move_with_hostile_nesting_is_invalid_argument(server, rpc, game, depth):
    pb2, stub = rpc
    before = _store(server)
    move = pb2.Move(name="place", args={"card": _nested(pb2, depth)})
    _grpc_refused(lambda: stub.SubmitMove(
        pb2.SubmitMoveRequest(game_id=game["game_id"], move=move, expected_version=game["version"]),
        metadata=grpc_auth(game["tokens"][game["seat"]])), "bad_move")
    assert _store(server) == before


def test_grpc_create_game_refuses_deep_options_and_nul_seeds(server, rpc):
    pb2, stub = rpc
    before = _store(server)
    _grpc_refused(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup",
                                                                options={"colour_limit": _nested(pb2, 40)})),
                  "bad_options")
    _grpc_refused(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup", seed="a\x00b")), "bad_seed")
    _grpc_refused(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset="battle_line",
                                                                options={"match_games": pb2.Value(number=-1)})),
                  "bad_options")
    assert _store(server) == before
