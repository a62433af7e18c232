"""Property tests of the service's input handling (issue 14): whatever a client sends, the
answer is a result or a typed error, never a crash, and a refused request leaves the store as it
was."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.app import GameService, ServiceError
from api.app.inputs import MAX_JSON_DEPTH, check_json
from api.http.app import MAX_EVENT_ID_DIGITS, _last_event_id
from api.store import EventStore

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

# Any text, lone surrogates included (what a JSON "\ud800" escape decodes to).
any_text = st.text(st.characters(codec=None, categories=None), max_size=20)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | any_text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(any_text, inner, max_size=3),
    max_leaves=12,
)


def _encodable(value) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _depth(value) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


def _nest(value, levels: int):
    for _ in range(levels):
        value = [value]
    return value


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    store = EventStore(f"sqlite:///{tmp_path_factory.mktemp('props') / 'ludex.db'}")
    yield GameService(store)


@pytest.fixture(scope="module")
def game(service):
    created = service.create_game("balloon_cup", seed="properties")
    view = service.view(created["game_id"], None)
    seat = view["decision"]["seats"][0]
    return created["game_id"], created["tokens"][seat]


@SETTINGS
@given(value=json_values, extra=st.integers(0, 40))
def test_check_json_accepts_exactly_the_encodable_values_nested_within_the_limit(value, extra):
    value = _nest(value, extra)
    ok = _encodable(value) and _depth(value) <= MAX_JSON_DEPTH
    try:
        assert check_json(value, "move args", "bad_move") is value
        assert ok
    except ServiceError as exc:
        assert not ok
        assert exc.code == "bad_move" and exc.reason and exc.details["field"] == "move args"
        json.dumps(exc.to_dict()).encode("utf-8")  # the error itself always encodes


@SETTINGS
@given(name=any_text, args=st.dictionaries(any_text, json_values, max_size=3))
def test_any_move_is_answered_or_refused_with_a_typed_error_and_no_stored_change(service, game, name, args):
    game_id, token = game
    before = service.export(game_id)
    try:
        service.submit_move(game_id, token, {"name": name, "args": args}, before[-1]["version"])
    except ServiceError as exc:
        json.dumps(exc.to_dict(), ensure_ascii=False).encode("utf-8")
        assert service.export(game_id) == before
    else:  # a random name that happens to be a legal move: the game moved on, by one move
        after = service.export(game_id)
        assert after[: len(before)] == before and after[len(before)]["kind"] == "move"


@SETTINGS
@given(text=any_text, filename=any_text)
def test_any_rule_text_gets_diagnostics_or_a_typed_error(service, text, filename):
    try:
        result = service.check_ruleset(text, filename or "<text>")
    except ServiceError as exc:
        assert exc.code == "bad_text" and exc.reason
    else:
        json.dumps(result, ensure_ascii=False).encode("utf-8")
        assert result["ok"] is False and result["diagnostics"]


@SETTINGS
@given(value=st.integers(-(2**70), 2**70) | st.sampled_from([0, 1, 9, 10]))
def test_an_option_with_a_range_is_accepted_exactly_within_it(service, value):
    try:
        service.create_game("battle_line", options={"match_games": value}, seed="range")
        assert 1 <= value <= 9
    except ServiceError as exc:
        assert not 1 <= value <= 9
        assert exc.code == "bad_options" and exc.details["option"] == "match_games"


@SETTINGS
@given(value=any_text | st.from_regex(r"\A[0-9]{1,25}\Z"))
def test_last_event_id_is_a_version_or_refused(value):
    try:
        assert _last_event_id(value) == int(value)
        assert value.isascii() and value.isdigit() and len(value) <= MAX_EVENT_ID_DIGITS
    except ServiceError as exc:
        assert exc.code == "bad_last_event_id"
        assert not (value.isascii() and value.isdigit() and len(value) <= MAX_EVENT_ID_DIGITS)
