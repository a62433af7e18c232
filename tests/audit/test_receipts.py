"""Signed receipts: the key ring beside the store, receipts on every move and at the end,
published keys over HTTP, and `ludex audit --receipt`."""

from __future__ import annotations

import json
import random
import stat

from audit_helpers import play_to_end
from service_harness import run_cli, write_log

from api.app import GameService, Rules, audit_log
from api.app.receipts import KeyRing
from api.store import EventStore


def test_the_key_ring_is_created_beside_the_store_kept_and_rotated(tmp_path):
    url = f"sqlite:///{tmp_path / 'games.db'}"
    ring = KeyRing.beside(url)
    folder = tmp_path / "games.db.keys"
    assert ring.directory == folder
    pem = folder / f"{ring.current}.pem"
    assert stat.S_IMODE(pem.stat().st_mode) == 0o600
    again = KeyRing.beside(url)  # the next start signs with the same key
    assert again.current == ring.current and again.public_keys() == ring.public_keys()

    old = ring.sign("g", 3, "ab" * 32, sealed=False)
    new_id = again.rotate()
    assert new_id != ring.current
    keys = KeyRing.beside(url).public_keys()
    assert [k["key_id"] for k in keys if k["current"]] == [new_id] and len(keys) == 2
    assert KeyRing.beside(url).sign("g", 3, "ab" * 32, sealed=False)["key_id"] == new_id
    from api.app.receipts import check_signature, trusted_keys

    check_signature(old, trusted_keys(keys))  # receipts of the old key still verify


def test_moves_carry_receipts_and_audit_checks_them(tmp_path):
    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    service = GameService(store, keys=KeyRing.beside(store.url))
    game = service.create_game("hanabi", seats=2, seed="receipts")
    held = []
    rng = random.Random(6)
    while not service.view(game["game_id"], None)["terminal"]:
        seat = service.view(game["game_id"], None)["decision"]["seats"][0]
        legal = service.legal_moves(game["game_id"], game["tokens"][seat])
        response = service.submit_move(game["game_id"], game["tokens"][seat], rng.choice(legal["moves"]), legal["version"])
        held.append(response["receipt"])
        assert response["receipt"]["version"] == response["version"]
    assert all(r["sealed"] for r in held[:-1]) and not held[-1]["sealed"]
    log = service.export(game["game_id"])
    assert held[-1]["head"] == log[-1]["hash"]
    export = service.export_header(game["game_id"])
    assert export["receipt"] == held[-1]  # Ed25519 signatures are deterministic

    report = audit_log(Rules(), log, export=export, receipts=held)
    assert report.verified
    assert sum(c.name == "receipt" and c.status == "passed" for c in report.checks) == len(held)

    # Cut short (and no export header): a receipt beyond the cut fails, naming its event.
    cut = log[: held[2]["version"] - 1]
    report = audit_log(Rules(), cut, receipts=[held[2]], pinned_keys=[export["keys"][0]["public_key"]])
    assert report.failure.version == len(cut)
    assert report.failure.check == "receipt" and "cut short" in report.failure.message

    # The CLI: a receipt file (or a saved move response) proves the head; a forged one fails.
    path = write_log(tmp_path / "game.jsonl", [export, *log])
    (tmp_path / "r1.json").write_text(json.dumps(held[1]))
    (tmp_path / "r2.json").write_text(json.dumps({"version": 9, "receipt": held[3]}))
    done = run_cli("audit", str(path), "--receipt", str(tmp_path / "r1.json"), "--receipt", str(tmp_path / "r2.json"))
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("passed   receipt") == 2 and "sealed with the seed" in done.stdout
    forged = dict(held[1], head="0" * 64)
    (tmp_path / "forged.json").write_text(json.dumps(forged))
    done = run_cli("audit", str(path), "--receipt", str(tmp_path / "forged.json"))
    assert done.returncode == 1 and "FAILED [receipt] the signature does not verify" in done.stdout, done.stdout

    # Pinning another key: the export's receipt no longer counts.
    other = KeyRing.ephemeral().public_keys()[0]["public_key"]
    done = run_cli("audit", str(path), "--key", other)
    assert done.returncode == 1 and "not among the trusted keys" in done.stdout, done.stdout
    done = run_cli("audit", str(path), "--key", export["keys"][0]["public_key"])
    assert done.returncode == 0 and "(pinned with --key)" in done.stdout, done.stdout
    store.dispose()


def test_keys_command_lists_and_rotates(tmp_path):
    db = f"sqlite:///{tmp_path / 'ludex.db'}"
    first = json.loads(run_cli("keys", "--db", db).stdout)["keys"]
    rotated = json.loads(run_cli("keys", "--db", db, "--rotate").stdout)["keys"]
    assert len(first) == 1 and len(rotated) == 2
    assert rotated[0]["current"] and not rotated[1]["current"] and rotated[1]["key_id"] == first[0]["key_id"]


def test_the_export_header_of_a_running_game_carries_a_sealed_receipt(tmp_path):
    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    service = GameService(store)
    game = play_to_end(service, "hanabi", "running", random.Random(1), seats=2, moves=2)
    export, log = service.export_header(game["game_id"]), service.export(game["game_id"])
    assert export["receipt"]["sealed"] and export["receipt"]["version"] == len(log)
    report = audit_log(Rules(), log, export=export)
    assert report.ok and not report.verified  # unfinished: the seal cannot be opened yet
    check = next(c for c in report.checks if c.name == "export_receipt")
    assert check.status == "skipped" and "seed is not revealed" in check.detail, check
    store.dispose()
