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
