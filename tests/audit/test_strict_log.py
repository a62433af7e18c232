"""The audit reads a log strictly: a known format, exact fields, JSON types, integers only;
legacy (`ludex-log/1`) games go on in their own encoding."""

from __future__ import annotations

import json
import random

import pytest
from audit_helpers import new_service, play_to_end
from service_harness import play_service, run_cli, write_log

from api.app import Rules, audit_log
from api.app import log as gamelog
from api.store import LEGACY_LOG_FORMAT, LOG_FORMAT


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    service, store = new_service(tmp_path_factory.mktemp("strict"))
    game = play_to_end(service, "hanabi", "strict", random.Random(2), seats=2)
    yield service.export(game["game_id"])
    store.dispose()


@pytest.fixture(scope="module")
def finished_export(tmp_path_factory):
    """A finished game as `ludex export` writes it: the export header line, then the log."""
    service, store = new_service(tmp_path_factory.mktemp("export"))
    game = play_to_end(service, "hanabi", "strict", random.Random(2), seats=2)
    yield [service.export_header(game["game_id"]), *service.export(game["game_id"])]
    store.dispose()


def _edit(log, index, **changes):
    out = [dict(e) for e in log]
    out[index] = dict(out[index], body={**out[index]["body"], **changes})
    return out


def test_each_shape_error_names_its_event_and_field(finished):
    rules = Rules()
    move = next(i for i, e in enumerate(finished) if e["kind"] == "move")
    version = finished[move]["version"]
    cases = [
        (_edit(finished, move, ply=float(finished[move]["body"]["ply"])), "integers only"),
        (_edit(finished, move, extra=1), "unknown field 'extra'"),
        (_edit(finished, 0, format="ludex-log/9"), "unknown log format 'ludex-log/9'"),
        (_edit(finished, 0, seats=True), "field 'seats' must be an integer"),
        (_edit(finished, 0, created_at="yesterday"), "field 'created_at' must be an ISO 8601 time"),
    ]
    for log, words in cases:
        report = audit_log(rules, log)
        assert not report.ok and words in report.failure.message, report.failure
    report = audit_log(rules, cases[0][0])
    assert report.failure.version == version and report.failure.check == "schema"
    assert [c.status for c in report.checks] == ["passed", "failed"]


def test_cli_refuses_duplicate_keys_and_reports_every_check(finished_export, tmp_path):
    path = write_log(tmp_path / "log.jsonl", finished_export)
    done = run_cli("audit", str(path))
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    assert lines[0].startswith("verified: ") and "a finished game" in lines[0]
    for check in ("format", "schema", "hash_chain", "export_receipt", "ruleset", "header", "seed_commitment", "moves_legal",
                  "chance_outcomes", "outcome"):
        assert any(line.split()[:2] == ["passed", check] for line in lines[1:]), (check, done.stdout)

    text = path.read_text().splitlines()
    text[2] = text[2][:-1] + ', "version": 2}'
    path.write_text("\n".join(text) + "\n")
    done = run_cli("audit", str(path))
    assert done.returncode == 1 and "log.jsonl:3: not a log line (duplicate key 'version')" in done.stderr


def test_a_game_started_in_the_legacy_format_continues_in_it(tmp_path, monkeypatch):
    """A store written before RFC 8785 hashes: its running games keep their encoding."""
    service, store = new_service(tmp_path)
    monkeypatch.setattr(gamelog, "LOG_FORMAT", LEGACY_LOG_FORMAT)
    game = play_to_end(service, "hanabi", "legacy", random.Random(3), seats=2, moves=2)
    monkeypatch.setattr(gamelog, "LOG_FORMAT", LOG_FORMAT)
    fresh = service.__class__(store)  # a new process: the upgraded code reads the old game
    play_service(fresh, game, random.Random(4))
    log = fresh.export(game["game_id"])
    assert log[0]["body"]["format"] == LEGACY_LOG_FORMAT
    report = audit_log(Rules(), log, export=fresh.export_header(game["game_id"]))
    assert report.verified, report.failure
    new_game = fresh.create_game("hanabi", seats=2)
    assert fresh.export(new_game["game_id"])[0]["body"]["format"] == LOG_FORMAT
    json.dumps(report.to_dict())
    store.dispose()
