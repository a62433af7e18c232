"""The tamper suite: every edited copy of an exported finished game fails its audit.

An edit made without recomputing the hash chain must always be caught by the log alone. With
the chain recomputed, the log alone can only catch what breaks the rules or the log's shape
(a forger who recomputes the chain can write any other legal game): those need a receipt.
"""

from __future__ import annotations

import random

import pytest
from audit_helpers import new_service, play_to_end
from tamper import tampered_logs

from api.app import Rules, audit_log
from api.store import LEGACY_LOG_FORMAT, LOG_FORMAT


@pytest.fixture(scope="module")
def finished_logs(tmp_path_factory):
    service, store = new_service(tmp_path_factory.mktemp("tamper"))
    logs = []
    for seed in ("tamper-1", "tamper-2"):
        game = play_to_end(service, "hanabi", seed, random.Random(seed), seats=2)
        logs.append(service.export(game["game_id"]))
    store.dispose()
    return logs


def test_every_edit_without_a_recomputed_chain_is_caught(finished_logs):
    rules = Rules()
    total = 0
    for log in finished_logs:
        assert audit_log(rules, log).verified
        for t in tampered_logs(log, LOG_FORMAT):
            if t.recomputed:
                continue
            total += 1
            report = audit_log(rules, t.entries)
            assert not report.verified, t.label
            if report.failure is not None and report.failure.version is not None and t.label.startswith("event "):
                edited = int(t.label.split(":")[0].split()[1])
                assert report.failure.version <= edited, (t.label, report.failure)
    assert total > 2000  # every kind of edit was made: values, types, fields, order, length


def test_type_changes_and_added_fields_are_caught_even_with_the_chain_recomputed(finished_logs):
    rules = Rules()
    kinds = ("=true", "=false", ".0", "add ", "remove ", "truncate", "delete", "swap")
    for log in finished_logs:
        for t in tampered_logs(log, LOG_FORMAT):
            label = t.label.split(": ", 1)[-1]
            if t.recomputed and any(k in label for k in kinds):
                assert not audit_log(rules, t.entries).verified, t.label


def test_a_legacy_log_is_verified_in_its_own_encoding(finished_logs):
    """Stores written before RFC 8785 hashes keep `ludex-log/1` records; they still audit."""
    from tamper import rehash

    log = [dict(e) for e in finished_logs[0]]
    log[0] = dict(log[0], body=dict(log[0]["body"], format=LEGACY_LOG_FORMAT))
    legacy = rehash(log, LEGACY_LOG_FORMAT)
    report = audit_log(Rules(), legacy)
    assert report.verified, report.failure
    assert "legacy" in report.checks[0].detail
    # Read as the new format, the same hashes do not verify: the encodings differ.
    as_new = [legacy[0] | {"body": dict(legacy[0]["body"], format=LOG_FORMAT)}, *legacy[1:]]
    assert audit_log(Rules(), as_new).failure.check == "hash_chain"
