"""schemathesis against the live /openapi.json (issue 14): every operation, with inputs that fit
the schema and inputs that break it (negative testing); no 5xx, every answer documented and
shaped as documented, invalid input refused and valid input accepted.

The game-scoped operations get the id of a finished game half of the time (the rest are
random ids, 404), so they reach the rules and the store; a finished game's stream ends.
"""

from __future__ import annotations

import random

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from service_harness import create_http_game, play_http

EXAMPLES = 12  # per operation and mode: about 300 requests in all

# Operations that refuse some schema-valid input for what it means, as their documentation
# says (a move the rules refuse: 422; options a ruleset does not have: 400; `at` past the log:
# 400): schemathesis's "valid data is accepted" check does not apply there. Every other check
# does, including that the refusal is a documented, typed error body.
SEMANTIC_REFUSALS = {("POST", "/games"), ("POST", "/games/{game_id}/moves"), ("GET", "/games/{game_id}/replay")}


@pytest.fixture(scope="module")
def finished_game(server) -> str:
    with httpx.Client(base_url=server.http, timeout=30) as client:
        game = create_http_game(client, "balloon_cup", seed="schemathesis")
        play_http(client, game["game_id"], game["tokens"], random.Random(14))
    return game["game_id"]


@pytest.fixture(scope="module")
def api_schema(server):
    return schemathesis.openapi.from_url(server.http + "/openapi.json")


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_operation_conforms_to_the_openapi_document(api_schema, finished_game, mode):
    failures: list[str] = []
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) >= 10
    for op in operations:
        strategies = [op.as_strategy(generation_mode=mode)]
        if "{game_id}" in op.path:
            strategies.append(op.as_strategy(generation_mode=mode, path_parameters={"game_id": finished_game}))

        @given(case=st.one_of(strategies))
        @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        def conforms(case):
            case.call_and_validate(timeout=30, excluded_checks=excluded)

        excluded = [positive_data_acceptance] if (op.method.upper(), op.path) in SEMANTIC_REFUSALS else []

        try:
            conforms()
        except Unsatisfiable:
            # Nothing in the operation can be made invalid (no parameters, or only a path
            # id, which may be any string): negative testing has no case to send.
            assert mode == GenerationMode.NEGATIVE and not len(op.query) and not len(op.body), op.path
        except Exception as exc:  # collect every operation's finding, then fail once
            failures.append(f"{op.method.upper()} {op.path}: {exc}")
    assert not failures, f"{len(failures)} of {len(operations)} operations:\n\n" + "\n\n".join(failures)


def test_the_stateful_phase_follows_a_created_game_with_its_tokens(server):
    """Issue 32: the OpenAPI links from POST /games (the game id into the path, seat 0's token
    into the Authorization header) let schemathesis' stateful phase follow games it created:
    every answer along the way is documented and shaped as documented, and the followed calls
    are authenticated (no 401 on an operation reached through a link that carries the token).
    Bounded: a few scenarios of a few steps."""
    api_schema = schemathesis.openapi.from_url(server.http + "/openapi.json")
    links = api_schema.raw_schema["paths"]["/games"]["post"]["responses"]["201"]["links"]
    assert links["legal_moves"]["parameters"] == {"path.game_id": "$response.body#/game_id",
                                                  "header.Authorization": "Bearer {$response.body#/tokens/0}"}
    seen: list[tuple[str, int, bool]] = []  # (operation, status, reached through a link)
    tokens: set[str] = set()

    class FollowGames(api_schema.as_state_machine()):
        def before_call(self, case):
            # A game schemathesis can follow: a bundled ruleset, no variants or options (random
            # names of those are refused, as the negative tests check).
            if (case.method.upper(), case.path) == ("POST", "/games"):
                case.body = {"ruleset": "balloon_cup", "seed": "stateful"}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # through a link: the Authorization header holds a token a created game gave (the
            # others are schemathesis' own random bearer tokens)
            followed = (case.headers or {}).get("Authorization") in tokens
            seen.append((case.operation.label, response.status_code, followed))
            if response.status_code == 201 and case.path == "/games":
                tokens.update(f"Bearer {t}" for t in response.json()["tokens"])
            case.validate_response(response, excluded_checks=[positive_data_acceptance], transport_kwargs=kwargs)

    FollowGames.run(settings=settings(max_examples=6, stateful_step_count=4, deadline=None, derandomize=True,
                                      database=None, suppress_health_check=list(HealthCheck)))
    followed = [(op, status) for op, status, via_link in seen if via_link]
    assert any(op == "POST /games" and status == 201 for op, status, _ in seen), seen
    assert followed, seen
    assert all(status != 401 for _, status in followed), followed
    assert any(status == 200 for _, status in followed), followed  # the token opened the game to its seat
