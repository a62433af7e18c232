"""Hostile requests against a real server (issue 14): each gets a typed 4xx (gRPC
INVALID_ARGUMENT) with a reason, and leaves the store exactly as it was."""

from __future__ import annotations

import json

import grpc
import httpx
import pytest
from service_harness import bearer, create_http_game, grpc_auth, grpc_error, grpc_stub, store_rows

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


_store = store_rows


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


# -- issue 23: a move means exactly what its client sent ------------------------------------------

def _listed_place(client, game) -> dict:
    """A listed `place` move with `s` = 0 (a tile's first side)."""
    listed = client.get(f"/games/{game['game_id']}/legal-moves", headers=game["headers"]).json()["moves"]
    return next(m for m in listed if m["name"] == "place" and m["args"]["s"] == 0)


@pytest.mark.parametrize("raw,sent", [("true", "boolean"), ("false", "boolean"), ("1.0", "number"),
                                      ("0.0", "number"), ("2.0", "number"), ('"0"', "string"), ("null", "null")])
def test_a_seat_argument_takes_an_integer_only(server, client, game, raw, sent):
    move = _listed_place(client, game)
    before = _store(server)
    args = json.dumps({**move["args"], "s": 0}).replace('"s": 0', f'"s": {raw}')
    r = _post_raw(client, f"/games/{game['game_id']}/moves", _move_body("place", args, game["version"]), game["headers"])
    body = _refused(r, 400, "bad_move")
    assert (body["move"], body["argument"], body["expected"], body["sent"]) == ("place", "s", "integer", sent)
    assert body["message"].startswith("move 'place': argument 's' must be an integer (seat), not ")
    assert _store(server) == before
    # the listed move itself is played exactly as sent: side 0, not the side `true` would have been
    played = client.post(f"/games/{game['game_id']}/moves", json={"move": move, "expected_version": game["version"]},
                         headers=game["headers"])
    assert played.status_code == 200, played.text
    assert played.json()["events"][0]["body"]["args"]["s"] == 0


@pytest.mark.parametrize("field,raw", [("expected_version", "true"), ("expected_version", "3.0"), ("seat", "false"),
                                       ("seat", "1.0")])
def test_expected_version_and_seat_take_integers_only(server, client, game, field, raw):
    before = _store(server)
    doc = {"move": {"name": "place", "args": {}}, "expected_version": game["version"]}
    text = json.dumps({**doc, field: "X"}).replace('"X"', raw)
    body = _refused(_post_raw(client, f"/games/{game['game_id']}/moves", text.encode(), game["headers"]),
                    422, "invalid_request")
    assert f"{field}: Input should be a valid integer, not {raw}" in body["message"]
    assert _store(server) == before


def test_the_python_client_sends_exactly_what_it_is_given(server, client, game):
    from ludex.client import Client, LudexError

    before = _store(server)
    with pytest.raises(LudexError) as refused:
        Client(http=client).submit(game["game_id"], game["tokens"][game["seat"]], _listed_place(client, game),
                                   expected_version=True)
    assert refused.value.status == 422 and "not true (a boolean)" in refused.value.message
    assert _store(server) == before


@pytest.mark.parametrize("body,code,message", [
    ({"seats": True}, "invalid_request", "seats: Input should be a valid integer, not true (a boolean)"),
    ({"seats": 2.0}, "invalid_request", "seats: Input should be a valid integer, not 2.0"),
    ({"options": {"colour_limit": True}}, "bad_options",
     "option 'colour_limit' must be an integer or null, not true (a boolean)"),
    ({"options": {"colour_limit": 2.0}}, "bad_options",
     "option 'colour_limit' must be an integer or null, not 2.0 (a number with a fraction part)"),
    ({"options": {"three_for_one": 1}}, "bad_options", "option 'three_for_one' must be a boolean, not 1 (an integer)"),
    ({"options": {"three_for_one": None}}, "bad_options", "option 'three_for_one' must be a boolean, not null"),
])
def test_options_and_seats_take_their_declared_types_only(server, client, body, code, message):
    before = _store(server)
    r = client.post("/games", json={"ruleset": "balloon_cup", **body})
    refused = _refused(r, 422 if code == "invalid_request" else 400, code)
    assert message in refused["message"]
    assert _store(server) == before


def test_none_is_a_value_of_an_optional_option(client):
    assert client.post("/games", json={"ruleset": "balloon_cup", "options": {"colour_limit": None}}).status_code == 201


@pytest.mark.parametrize("path,raw,key", [
    ("moves", b'{"move": {"name": "place", "args": {}}, "expected_version": 9, "expected_version": 3}',
     "expected_version"),
    ("moves", b'{"move": {"name": "place", "args": {"s": 0, "s": 1}}, "expected_version": 3}', "s"),
    ("moves", b'{"move": {"name": "place", "name": "exchange", "args": {}}, "expected_version": 3}', "name"),
    ("moves", b'{"move": {"name": "claim", "args": {"trade": {"red": 1, "red": 2}}}, "expected_version": 3}', "red"),
    ("games", b'{"ruleset": "balloon_cup", "ruleset": "hanabi"}', "ruleset"),
    ("games", b'{"ruleset": "balloon_cup", "options": {"colour_limit": 1, "colour_limit": 4}}', "colour_limit"),
    ("check", b'{"text": "game g", "text": "game h"}', "text"),
])
def test_duplicate_json_keys_at_any_depth_are_malformed(server, client, game, path, raw, key):
    before = _store(server)
    url = {"moves": f"/games/{game['game_id']}/moves", "games": "/games", "check": "/rulesets/check"}[path]
    body = _refused(_post_raw(client, url, raw, game["headers"]), 400, "malformed_json")
    assert f'duplicate key "{key}"' in body["message"]
    assert _store(server) == before


@pytest.mark.parametrize("raw,why", [
    (b'{"move": {"name": "pl\xffce", "args": {}}, "expected_version": 1}', "not UTF-8"),
    (b'\xef\xbb\xbf{"move": {"name": "place"}, "expected_version": 1}', "BOM"),
    (b"[" * 200_000 + b"]" * 200_000, "nests too deep"),
    (b'{"move": {"name": "place", "args": {"s": NaN}}, "expected_version": 1}', "NaN"),
    (b'{"move": {"name": "place", "args": {"s": -Infinity}}, "expected_version": 1}', "Infinity"),
    (b'{"move": ', "Expecting value"),
])
@pytest.mark.parametrize("path", ["moves", "games"])
def test_every_undecodable_body_is_malformed_json(server, client, game, raw, why, path):
    before = _store(server)
    url = f"/games/{game['game_id']}/moves" if path == "moves" else "/games"
    body = _refused(_post_raw(client, url, raw, game["headers"]), 400, "malformed_json")
    assert why in body["message"]
    assert _store(server) == before


def _move_pb(pb2, args: dict):
    return pb2.Move(name="place", args=args)


def test_grpc_a_flag_or_an_unset_value_is_not_a_number(server, rpc, client, game):
    pb2, stub = rpc
    move = _listed_place(client, game)
    before = _store(server)
    named = {k: pb2.Value(text=v) for k, v in move["args"].items() if k != "s"}
    for value, sent in [(pb2.Value(flag=True), "boolean"), (pb2.Value(flag=False), "boolean"),
                        (pb2.Value(text="0"), "string"), (pb2.Value(none=0), "null")]:
        body = _grpc_refused(lambda: stub.SubmitMove(
            pb2.SubmitMoveRequest(game_id=game["game_id"], move=_move_pb(pb2, {**named, "s": value}),
                                  expected_version=game["version"]),
            metadata=grpc_auth(game["tokens"][game["seat"]])), "bad_move")
        assert (body["argument"], body["expected"], body["sent"]) == ("s", "integer", sent)
    body = _grpc_refused(lambda: stub.SubmitMove(
        pb2.SubmitMoveRequest(game_id=game["game_id"], move=_move_pb(pb2, {**named, "s": pb2.Value()}),
                              expected_version=game["version"]),
        metadata=grpc_auth(game["tokens"][game["seat"]])), "bad_move")
    assert "['s']: a Value with none of its fields set" in body["message"]
    body = _grpc_refused(lambda: stub.CreateGame(pb2.CreateGameRequest(ruleset="balloon_cup",
                                                                       options={"colour_limit": pb2.Value()})),
                         "bad_options")
    assert "['colour_limit']: a Value with none of its fields set" in body["message"]
    _grpc_refused(lambda: stub.CreateGame(pb2.CreateGameRequest(
        ruleset="balloon_cup", options={"three_for_one": pb2.Value(number=1)})), "bad_options")
    assert _store(server) == before


def _length_delimited(field: int, payload: bytes) -> bytes:
    """One protobuf field of wire type 2, written by hand (protobuf refuses to write these)."""
    size, n = bytearray(), len(payload)
    while n > 0x7F:
        size.append((n & 0x7F) | 0x80)
        n >>= 7
    size.append(n)
    return bytes([field << 3 | 2]) + bytes(size) + payload


def _deep_value(depth: int) -> bytes:
    value = b"\x10\x01"  # Value.number = 1
    for _ in range(depth):
        value = _length_delimited(6, _length_delimited(1, value))  # Value.list -> ValueList.items
    return value


@pytest.mark.parametrize("method,data,code,field", [
    ("SubmitMove", b"\xff\xff\xff\xff", "invalid_request", None),
    ("SubmitMove", _length_delimited(2, _length_delimited(1, b"pl\xffce")), "bad_move", "move"),
    ("SubmitMove", _length_delimited(2, _length_delimited(1, b"place")
                                     + _length_delimited(2, _length_delimited(1, b"s") + _length_delimited(2, _deep_value(120)))),
     "bad_move", "move"),
    ("CreateGame", _length_delimited(1, b"balloon\xff"), "bad_ruleset", "ruleset"),
    ("CreateGame", _length_delimited(5, b"seed\xc3"), "bad_seed", "seed"),
    ("CheckRuleset", _length_delimited(1, b"game \xff"), "bad_text", "text"),
    ("GetView", _length_delimited(1, b"\xfe"), "invalid_request", "game_id"),
    ("StreamEvents", b"\x0a", "invalid_request", None),
])
def test_grpc_requests_that_cannot_be_decoded_are_invalid_argument(server, game, method, data, code, field):
    before = _store(server)
    channel = grpc.insecure_channel(server.grpc_target)
    try:
        call = (channel.unary_stream if method == "StreamEvents" else channel.unary_unary)(f"/ludex.v1.Ludex/{method}")
        body = _grpc_refused(lambda: list(call(data)) if method == "StreamEvents" else call(
            data, metadata=grpc_auth(game["tokens"][game["seat"]])), code)
    finally:
        channel.close()
    assert body.get("field") == field and body["message"] and body["reason"]
    assert _store(server) == before


def test_a_stream_client_going_away_is_not_a_warning(caplog):
    """asyncio's write-after-disconnect record (what a stream's client closing mid-stream
    leaves) is DEBUG, not WARNING, once the HTTP face is created."""
    import logging

    from api.http.disconnects import quiet_disconnects

    quiet_disconnects()
    with caplog.at_level(logging.WARNING, logger="asyncio"):
        logging.getLogger("asyncio").warning("socket.send() raised exception.")
        logging.getLogger("asyncio").warning("something else")
    assert [r.getMessage() for r in caplog.records] == ["something else"]
    with caplog.at_level(logging.DEBUG, logger="asyncio"):
        logging.getLogger("asyncio").warning("socket.send() raised exception.")
    assert caplog.records[-1].levelname == "DEBUG"


def test_a_query_parameter_given_twice_is_refused(client, game):
    """As with a body's duplicate keys: `?at=1&at=2` would mean 1 to one reader and 2 to another."""
    r = client.get(f"/games/{game['game_id']}/replay?at=1&at=2")
    body = _refused(r, 422, "invalid_request")
    assert "'at' is given more than once" in body["message"]
    assert client.get(f"/games/{game['game_id']}/replay?at=1").status_code == 200


@pytest.mark.parametrize("path,method", [("legal-moves", "GET"), ("view", "GET"), ("moves", "POST")])
def test_two_authorization_headers_are_refused(server, client, game, path, method):
    before = _store(server)
    token = game["tokens"][game["seat"]]
    headers = [("authorization", "Bearer forged"), ("authorization", f"Bearer {token}"),
               ("content-type", "application/json")]
    r = client.request(method, f"/games/{game['game_id']}/{path}", headers=headers,
                       content=json.dumps({"move": _listed_place(client, game), "expected_version": game["version"]})
                       if method == "POST" else None)
    assert _refused(r, 401, "bad_token")["message"] == "send one Authorization header, not several"
    assert _store(server) == before


def test_grpc_two_authorization_entries_are_refused(server, rpc, game):
    pb2, stub = rpc
    token = game["tokens"][game["seat"]]
    with pytest.raises(grpc.RpcError) as refused:
        stub.GetLegalMoves(pb2.GetLegalMovesRequest(game_id=game["game_id"]),
                           metadata=[("authorization", f"Bearer {token}"), ("authorization", "Bearer forged")])
    assert refused.value.code() == grpc.StatusCode.UNAUTHENTICATED
    assert grpc_error(refused.value)["code"] == "bad_token"
