"""The tamper suite: edited copies of exported finished games fail their audit.

Every edit made without recomputing the hash chain is caught by the export alone (the log and
its header line with the service's signed receipt). With the chain recomputed *and* the
export header re-signed by a forger's own key, the export alone can only catch what breaks the
rules or the log's shape (such a forger can write any other legal game): a receipt a player
kept catches all of them.
"""

from __future__ import annotations

import copy
import random

import pytest
from audit_helpers import new_service, play_to_end
from tamper import tampered_logs

from api.app import Rules, audit_log
from api.app.receipts import EXPORT_FORMAT, KeyRing
from api.store import LEGACY_LOG_FORMAT, LOG_FORMAT


@pytest.fixture(scope="module")
def finished_games(tmp_path_factory):
    """[(export header, log, receipts the players kept, the last of them)] of two Hanabi games."""
    service, store = new_service(tmp_path_factory.mktemp("tamper"))
    games = []
    for seed in ("tamper-1", "tamper-2"):
        game = play_to_end(service, "hanabi", seed, random.Random(seed), seats=2)
        games.append((service.export_header(game["game_id"]), service.export(game["game_id"]), game["last"]["receipt"]))
    store.dispose()
    return games


def _forged_export(entries, forger: KeyRing):
    """What a forger who recomputed the chain would also write: an export header listing their
    own key, with a receipt of the forged head."""
    game_id = entries[0].get("game_id", "?") if entries else "?"
    head = entries[-1].get("hash", "0" * 64) if entries else "0" * 64
    receipt = forger.sign(str(game_id), len(entries), str(head), sealed=False)
    return {"export": EXPORT_FORMAT, "game_id": game_id, "keys": forger.public_keys(), "receipt": receipt}


def _header_edits(export):
    """Every single-field edit of the export header (keys and receipt included)."""
    edits = []
    for field in ("export", "game_id"):
        edits.append(dict(export, **{field: export[field] + "x"}))
    for field, value in export["receipt"].items():
        if isinstance(value, bool):
            other = not value
        elif isinstance(value, int):
            other = value - 1
        else:
            other = value[:-4] + "AAA=" if field == "signature" else value + "x"
        edits.append(dict(export, receipt=dict(export["receipt"], **{field: other})))
        edits.append(dict(export, receipt={k: v for k, v in export["receipt"].items() if k != field}))
    edits.append(dict(export, keys=[]))
    other_key = KeyRing.ephemeral().public_keys()[0]
    edits.append(dict(export, keys=[dict(export["keys"][0], public_key=other_key["public_key"])]))
    edits.append(dict(export, extra=1))
    return edits


def test_every_edit_without_a_recomputed_chain_is_caught(finished_games):
    rules = Rules()
    total = 0
    for export, log, _held in finished_games:
        assert audit_log(rules, log, export=export).verified
        for t in tampered_logs(log, LOG_FORMAT, recomputed=False):
            total += 1
            report = audit_log(rules, t.entries, export=export)
            assert not report.verified, t.label
            if report.failure is not None and report.failure.version is not None and t.label.startswith("event "):
                edited = int(t.label.split(":")[0].split()[1])
                assert report.failure.version <= edited, (t.label, report.failure)
        for edited_export in _header_edits(export):
            total += 1
            assert not audit_log(rules, log, export=edited_export).verified, edited_export
    assert total > 2000  # every kind of edit was made: values, types, fields, order, length


def test_every_edit_is_caught_when_a_receipt_is_held(finished_games):
    rules = Rules()
    forger = KeyRing.ephemeral()
    export, log, held = finished_games[0]
    assert audit_log(rules, log, export=export, receipts=[held]).verified
    total = 0
    for t in tampered_logs(log, LOG_FORMAT):
        total += 1
        if t.recomputed:
            # The forger signs their export with their own key, and lists the service's real
            # (public) key beside it so that the held receipt's signature still verifies.
            forged = _forged_export(t.entries, forger)
            forged["keys"] = [*export["keys"], *forged["keys"]]
        else:
            forged = export
        assert not audit_log(rules, t.entries, export=forged, receipts=[held]).verified, t.label
    assert total > 2000


def test_with_the_chain_recomputed_the_export_alone_catches_shape_and_rule_breaks(finished_games):
    """Type changes, added or removed fields: caught by the strict schema even when the forger
    recomputed the chain and signed the export with their own key."""
    rules = Rules()
    forger = KeyRing.ephemeral()
    kinds = ("=true", "=false", ".0", "add ", "remove ")
    _export, log, _held = finished_games[1]
    for t in tampered_logs(log, LOG_FORMAT, recomputed=True):
        label = t.label.split(": ", 1)[-1]
        if any(k in label for k in kinds):
            assert not audit_log(rules, t.entries, export=_forged_export(t.entries, forger)).verified, t.label


def test_a_sealed_receipt_from_the_middle_of_the_game_pins_everything_before_it(tmp_path):
    service, store = new_service(tmp_path)
    game = service.create_game("hanabi", seats=2, seed="sealed")
    from service_harness import play_service

    middle = play_service(service, game, random.Random(8), moves=3)["receipt"]
    assert middle["sealed"]
    assert middle["head"] != service.export(game["game_id"])[middle["version"] - 1]["hash"]  # reveals no hash
    play_service(service, game, random.Random(9))
    export, log = service.export_header(game["game_id"]), service.export(game["game_id"])
    rules = Rules()
    assert audit_log(rules, log, export=export, receipts=[middle]).verified
    edited = copy.deepcopy(log)
    edited[middle["version"] - 1]["body"]["rule"] += " (edited)"
    from tamper import rehash

    forged = rehash(edited, LOG_FORMAT)
    report = audit_log(rules, forged, export=_forged_export(forged, KeyRing.ephemeral()), receipts=[middle])
    assert report.failure.check == "receipt" and report.failure.version == middle["version"], report.failure
    store.dispose()


def test_a_legacy_log_is_verified_in_its_own_encoding(finished_games):
    """Stores written before RFC 8785 hashes keep `ludex-log/1` records; they still audit."""
    from tamper import rehash

    export, log, _held = finished_games[0]
    log = [dict(e) for e in log]
    log[0] = dict(log[0], body=dict(log[0]["body"], format=LEGACY_LOG_FORMAT))
    legacy = rehash(log, LEGACY_LOG_FORMAT)
    report = audit_log(Rules(), legacy)
    assert report.ok and report.finished, report.failure
    assert "legacy" in report.checks[0].detail
    # Read as the new format, the same hashes do not verify: the encodings differ.
    as_new = [legacy[0] | {"body": dict(legacy[0]["body"], format=LOG_FORMAT)}, *legacy[1:]]
    assert audit_log(Rules(), as_new).failure.check == "hash_chain"
