"""Every argument of every move of every bundled ruleset (and of the moves its variants add),
sent with a value of a wrong JSON type over HTTP and over gRPC (issue 23): never committed,
always a typed refusal (400 / INVALID_ARGUMENT, code `bad_move`) naming the move and the
argument, and the store row-for-row unchanged.

The expected JSON type of each argument is written out below from the rulesets' own
declarations (`move place(card in hand[actor], t in tiles, s in seats)`: a card and a tile by
name, a seat as a number), not computed by the code under test. One server for the module, one
game per ruleset and variant, reused by every request.
"""

from __future__ import annotations

from pathlib import Path

import grpc
import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from service_harness import bearer, create_http_game, grpc_auth, grpc_error, grpc_stub, store_rows

import dsl
from dsl import ast as A
from dsl.parser import parse_text

# (ruleset, variant or None, move, argument) -> the JSON type the rules declare for it:
# components, entities and enum values travel by name ("string"), seats and ints as "integer",
# Balloon Cup's `trade` (map<colour, int>) as an object of integers.
S, N, MAP_OF_INT = "string", "integer", "object-of-integer"
ARGUMENTS: dict[tuple[str, str | None, str, str], str] = {
    ("balloon_cup", None, "place", "card"): S, ("balloon_cup", None, "place", "t"): S,
    ("balloon_cup", None, "place", "s"): N, ("balloon_cup", None, "exchange", "n"): N,
    ("balloon_cup", None, "discard_card", "card"): S, ("balloon_cup", None, "claim", "tr"): S,
    ("balloon_cup", None, "claim", "trade"): MAP_OF_INT,
    ("balloon_cup", "wind", "wind", "card"): S, ("balloon_cup", "wind", "wind", "t"): S,
    ("balloon_cup", "wind", "wind", "s"): N, ("balloon_cup", "wind", "wind", "old"): S,
    **{("battle_line", None, move, arg): S for move, args in {
        "play_troop": ("card", "f"), "play_morale": ("card", "f"), "play_environment": ("card", "f"),
        "play_scout": ("card",), "play_redeploy": ("card", "flag_from", "c", "flag_to"),
        "play_redeploy_discard": ("card", "flag_from", "c"), "play_deserter": ("card", "f", "c"),
        "play_traitor": ("card", "f", "c", "flag_to"), "scout_put_back": ("card",), "claim": ("f",)}.items()
       for arg in args},
    ("hanabi", None, "hint_colour", "target"): N, ("hanabi", None, "hint_colour", "colour"): S,
    ("hanabi", None, "hint_rank", "target"): N, ("hanabi", None, "hint_rank", "rank"): N,
    ("hanabi", None, "discard", "k"): S, ("hanabi", None, "play", "k"): S,
    **{("weather_machine", None, move, arg): kind for move, arg, kind in [
        ("place_award", "w", S), ("place_award", "c", S), ("use_subsidy", "t", S), ("use_subsidy", "b", S),
        ("set_goal", "g", S), ("get_funding", "g", S), ("get_funding", "pick", N), ("go", "l", S), ("go", "i", N),
        ("go_supplier", "i", N), ("go_supplier", "pick", S), ("gain_action_value", "p", N),
        ("take_chemical", "k", S), ("return_chemical", "k", S), ("extend_workshop", "t", S),
        ("sell_part", "w", S), ("secure_subsidy", "t", S), ("secure_subsidy", "w", S),
        ("run_experiment", "w", S), ("publish", "w", S), ("research", "w", S), ("major_research", "w", S),
        ("exchange_chemical", "c", S), ("exchange_chemical", "k", S), ("exchange_part", "p", S),
        ("exchange_part", "c", S)]},
    ("weather_machine", "solo", "keep_report", "keep"): S, ("weather_machine", "solo", "keep_report", "back"): S,
    **{("weather_machine", "solo", f"sab_{w}", "w"): S for w in ("government", "lab", "rnd")},
}

# One value of each JSON type; those of the expected type are left out for each argument.
EACH_TYPE = {"null": None, "boolean": True, "boolean-false": False, "integer": 1, "fraction": 1.0,
             "string": "red-1", "array": [1], "object": {"red": 1}}
WRONG = {
    S: [k for k in EACH_TYPE if k != "string"],
    N: [k for k in EACH_TYPE if k != "integer"],
    MAP_OF_INT: [k for k in EACH_TYPE if k != "object"],
}


def test_the_table_covers_every_argument_of_every_bundled_move():
    """The table above names exactly the arguments the bundled rulesets' files declare (the
    game file's moves and those its variant files add or replace; parsed, not compiled)."""
    declared = set()
    for info in dsl.bundled_rulesets():
        folder = Path(info.path)
        for path in [folder / "game.ludex", *sorted((folder / "variants").glob("*.ludex"))]:
            parsed = parse_text(path.read_text(encoding="utf-8"), str(path))
            for decl in [*parsed.decls, *(e.decl for e in parsed.edits if e.decl is not None)]:
                if isinstance(decl, A.MoveDecl):
                    declared.update((info.name, decl.name, b.name) for b in decl.params)
    assert {(r, m, a) for r, _, m, a in ARGUMENTS} == declared


@pytest.fixture(scope="module")
def games(server):
    """One game per (ruleset, variant) of the table: (game id, a seat token), made over HTTP."""
    out = {}
    with httpx.Client(base_url=server.http, timeout=60) as client:
        for ruleset, variant in sorted({(r, v) for r, v, _, _ in ARGUMENTS}, key=str):
            game = create_http_game(client, ruleset, variants=[variant] if variant else [], seed="strict")
            out[ruleset, variant] = (game["game_id"], game["tokens"][0])
    return out


@pytest.fixture(scope="module")
def rpc(server):
    pb2, stub, channel = grpc_stub(server.grpc_target)
    yield pb2, stub
    channel.close()


def _value_pb(pb2, value):
    """`value` as a ludex.v1.Value, built by hand (not by the code under test)."""
    if value is None:
        return pb2.Value(none=0)
    if isinstance(value, bool):
        return pb2.Value(flag=value)
    if isinstance(value, int):
        return pb2.Value(number=value)
    if isinstance(value, str):
        return pb2.Value(text=value)
    if isinstance(value, list):
        return pb2.Value(list=pb2.ValueList(items=[_value_pb(pb2, v) for v in value]))
    return pb2.Value(map=pb2.ValueMap(entries={k: _value_pb(pb2, v) for k, v in value.items()}))


def _refused_both_faces(server, client, rpc, games, key, value) -> int:
    """Send `{arg: value}` for the move of `key` over HTTP and (when a Value can carry it) gRPC;
    both must be refused as a type error of that argument with the store unchanged. Returns
    the number of requests sent."""
    ruleset, variant, move, arg = key
    game_id, token = games[ruleset, variant]
    before = store_rows(server)
    r = client.post(f"/games/{game_id}/moves", json={"move": {"name": move, "args": {arg: value}},
                                                     "expected_version": 1}, headers=bearer(token))
    assert r.status_code == 400, (key, value, r.text)
    error = r.json()["error"]
    assert (error["code"], error["move"], error["argument"]) == ("bad_move", move, arg), error
    assert repr(arg) in error["message"] and "must be" in error["message"], error
    sent = 1
    if not _has_fraction(value):  # a Value has no fractions: gRPC cannot even say 1.0
        pb2, stub = rpc
        with pytest.raises(grpc.RpcError) as refused:
            stub.SubmitMove(pb2.SubmitMoveRequest(game_id=game_id, move=pb2.Move(name=move, args={arg: _value_pb(pb2, value)}),
                                                  expected_version=1), metadata=grpc_auth(token))
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT, (key, value)
        info = grpc_error(refused.value)
        assert (info["code"], info["move"], info["argument"]) == ("bad_move", move, arg), info
        sent += 1
    assert store_rows(server) == before, (key, value)
    return sent


def _has_fraction(value) -> bool:
    if isinstance(value, float):
        return True
    if isinstance(value, list):
        return any(map(_has_fraction, value))
    if isinstance(value, dict):
        return any(map(_has_fraction, value.values()))
    return False


def test_a_value_of_each_wrong_json_type_is_refused_on_both_faces(server, http, rpc, games):
    sent = 0
    for key, kind in ARGUMENTS.items():
        for wrong in WRONG[kind]:
            sent += _refused_both_faces(server, http, rpc, games, key, EACH_TYPE[wrong])
    assert sent > 2 * len(ARGUMENTS) * 5  # every argument, at least five wrong types, both faces


# Wrong values by construction: for a name anything but a string, for a number anything but an
# integer (integral fractions such as 2.0 included), for a map of integers anything but an object
# or an object holding a non-integer.
_scalars = st.none() | st.booleans() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=8)
_json = st.recursive(_scalars | st.integers(), lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=6)
_not_a_string = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) \
    | st.lists(_json, max_size=3) | st.dictionaries(st.text(max_size=4), _json, max_size=3)
_not_an_integer = _scalars | st.integers(-5, 5).map(float) | st.lists(_json, max_size=3) \
    | st.dictionaries(st.text(max_size=4), _json, max_size=3)
_colour = st.sampled_from(["red", "blue", "green", "yellow", "grey"])
_not_a_map_of_ints = (_scalars | st.integers() | st.lists(_json, max_size=3)) | st.builds(
    lambda ok, bad_key, bad: {**ok, bad_key: bad},
    st.dictionaries(_colour, st.integers(0, 5), max_size=2), _colour, _not_an_integer)
WRONG_VALUES = {S: _not_a_string, N: _not_an_integer, MAP_OF_INT: _not_a_map_of_ints}


@settings(max_examples=60, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_any_wrong_value_of_any_argument_is_refused_on_both_faces(server, http, rpc, games, data):
    key = data.draw(st.sampled_from(sorted(ARGUMENTS, key=str)), label="argument")
    value = data.draw(WRONG_VALUES[ARGUMENTS[key]], label="value")
    _refused_both_faces(server, http, rpc, games, key, value)
