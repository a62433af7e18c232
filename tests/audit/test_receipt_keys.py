"""Receipts without a game: the key ring's files and order, published keys, seals, and each way a
receipt or its head is refused (api/app/receipts.py). Known values come from outside the code
under test: the seal is `openssl dgst -sha256 -hmac` over the bytes written out here, the keys are
RFC 8032's (see test_known_answers.py)."""

from __future__ import annotations

import base64
import datetime as dt
import os
import stat

import pytest
from test_known_answers import (
    MOVE_HASH,
    RECEIPT_SIGNATURE,
    TEST1_KEY_ID,
    TEST1_PEM,
    TEST1_PUBLIC_B64,
)

from api.app.receipts import (
    KeyRing,
    ReceiptError,
    SealedUntilReveal,
    check_head,
    check_signature,
    public_key_from_text,
    seal,
    trusted_keys,
)

# openssl dgst -sha256 -hmac seed-1 of ["g-1",2,"375b...a8a2"]
SEAL = "29dfd84ff4dbca29d717d9d19b690dd62c162b448f62499a56733d7b0562c5ac"
RECEIPT = {"receipt": "ludex-receipt/1", "game_id": "g-1", "version": 2, "head": MOVE_HASH,
           "sealed": False, "key_id": TEST1_KEY_ID, "signature": RECEIPT_SIGNATURE}
LOG = [{"game_id": "g-1", "version": 1, "hash": "a" * 64}, {"game_id": "g-1", "version": 2, "hash": MOVE_HASH}]


def test_a_seal_is_the_hmac_of_the_head_keyed_by_the_seed():
    assert seal("seed-1", "g-1", 2, MOVE_HASH) == SEAL
    assert seal("seed-2", "g-1", 2, MOVE_HASH) != SEAL


def test_published_keys_are_read_back_and_odd_ones_refused():
    key = public_key_from_text(TEST1_PUBLIC_B64)
    assert trusted_keys([{"key_id": TEST1_KEY_ID, "public_key": TEST1_PUBLIC_B64}]) == {TEST1_KEY_ID: key}
    assert list(trusted_keys([{"public_key": TEST1_PUBLIC_B64}])) == [TEST1_KEY_ID]  # pinned: no key id given
    with pytest.raises(ReceiptError, match=r"^key '0+' is not the id of its public key$"):
        trusted_keys([{"key_id": "0" * 64, "public_key": TEST1_PUBLIC_B64}])
    for bad in ([{"key_id": TEST1_KEY_ID}], ["text"], [{"public_key": 7}]):
        with pytest.raises(ReceiptError, match=r"^a published key is \{key_id, algorithm, public_key, \.\.\.\}$"):
            trusted_keys(bad)
    for text in ("not base64!", base64.b64encode(b"short").decode()):
        with pytest.raises(ReceiptError, match=r"^not an Ed25519 public key \(base64 of 32 bytes\): "):
            public_key_from_text(text)


def _keys():
    return trusted_keys([{"public_key": TEST1_PUBLIC_B64}])


@pytest.mark.parametrize("receipt,message", [
    ("text", "a receipt has exactly the fields receipt, game_id, version, head, sealed, key_id, signature"),
    ({k: v for k, v in RECEIPT.items() if k != "sealed"}, "a receipt has exactly the fields"),
    ({**RECEIPT, "extra": 1}, "a receipt has exactly the fields"),
    ({**RECEIPT, "receipt": "ludex-receipt/9"}, "unknown receipt format 'ludex-receipt/9'"),
    ({**RECEIPT, "version": "2"}, "a receipt's version is an integer, sealed a boolean, the rest strings"),
    ({**RECEIPT, "version": True}, "a receipt's version is an integer"),
    ({**RECEIPT, "sealed": 0}, "a receipt's version is an integer"),
    ({**RECEIPT, "head": None}, "a receipt's version is an integer"),
    ({**RECEIPT, "signature": 5}, "a receipt's version is an integer"),
    ({**RECEIPT, "key_id": "ab" * 32}, "signed by key abababababababab..., which is not among the trusted keys"),
    ({**RECEIPT, "signature": "not base64!"}, "the signature does not verify with key 21fe31dfa154a261..."),
])
def test_each_malformed_receipt_is_refused_saying_why(receipt, message):
    check_signature(RECEIPT, _keys())
    with pytest.raises(ReceiptError) as info:
        check_signature(receipt, _keys())
    assert str(info.value).startswith(message)


def test_a_receipt_head_is_found_in_the_log_or_refused():
    check_head(RECEIPT, LOG, None)
    with pytest.raises(ReceiptError, match=r"^the receipt is for game 'g-1', not this log's$"):
        check_head(RECEIPT, [dict(e, game_id="g-2") for e in LOG], None)
    with pytest.raises(ReceiptError, match=r"^the receipt is for game 'g-1', not this log's$"):
        check_head(RECEIPT, [], None)
    with pytest.raises(ReceiptError, match=r"^the receipt is for event 2 but the log has 1 events \(cut short\)$"):
        check_head(RECEIPT, LOG[:1], None)
    with pytest.raises(ReceiptError, match=r"^the receipt is for event 0 but the log has 2 events"):
        check_head(dict(RECEIPT, version=0), LOG, None)
    with pytest.raises(ReceiptError, match=r"^event 1: the log's head differs from the receipted one"):
        check_head(dict(RECEIPT, version=1), LOG, None)
    sealed = dict(RECEIPT, sealed=True, head=SEAL)
    check_head(sealed, LOG, "seed-1")
    with pytest.raises(SealedUntilReveal, match=r"^event 2: the receipt is sealed and the seed is not revealed"):
        check_head(sealed, LOG, None)
    with pytest.raises(ReceiptError, match=r"^event 2: the log's head differs"):
        check_head(sealed, LOG, "seed-2")


def _ring_folder(tmp_path, *pems: tuple[str, str, int]):
    """A key folder of (key id, PEM, modification time) files, without a `current` file."""
    folder = tmp_path / "keys"
    folder.mkdir()
    for kid, pem, mtime in pems:
        path = folder / f"{kid}.pem"
        path.write_text(pem)
        os.utime(path, (mtime, mtime))
    return folder


# RFC 8032 TEST 2's secret as a PKCS#8 PEM, and its key id (sha256sum of its raw public key).
TEST2_PEM = ("-----BEGIN PRIVATE KEY-----\n"
             "MC4CAQAwBQYDK2VwBCIEIEzNCJso/5banbbDRuwRTg9bijGfNaumJNqM9u1PuKb7\n"
             "-----END PRIVATE KEY-----\n")
TEST2_KEY_ID = "39f713d0a644253f04529421b9f51b9b08979d08295959c4f3990ee617f5139f"


def test_a_key_ring_signs_with_its_newest_key_when_none_is_named_current(tmp_path):
    # TEST 1's key is the newer one, though its id sorts first: order is by time, not by id
    folder = _ring_folder(tmp_path, (TEST1_KEY_ID, TEST1_PEM, 2_000_000_000), (TEST2_KEY_ID, TEST2_PEM, 1_000_000_000))
    ring = KeyRing(folder)
    assert ring.current == TEST1_KEY_ID
    keys = ring.public_keys()
    assert [(k["key_id"], k["current"], k["algorithm"]) for k in keys] == [
        (TEST1_KEY_ID, True, "Ed25519"), (TEST2_KEY_ID, False, "Ed25519")]  # newest first
    assert [k["created_at"] for k in keys] == [
        dt.datetime.fromtimestamp(t, dt.timezone.utc).isoformat() for t in (2_000_000_000, 1_000_000_000)]
    (folder / "current").write_text(TEST2_KEY_ID + "\n")
    assert KeyRing(folder).current == TEST2_KEY_ID
    (folder / "current").write_text("f" * 64 + "\n")  # names no key: the newest signs
    assert KeyRing(folder).current == TEST1_KEY_ID


def test_a_rotated_key_is_written_private_and_named_current(tmp_path):
    folder = _ring_folder(tmp_path, (TEST1_KEY_ID, TEST1_PEM, 1_000_000_000))
    ring = KeyRing(folder)
    new = ring.rotate()
    assert new != TEST1_KEY_ID and ring.current == new
    assert (folder / "current").read_text() == new + "\n" and not (folder / "current.tmp").exists()
    assert stat.S_IMODE((folder / f"{new}.pem").stat().st_mode) == 0o600
    assert ring.sign("g-1", 2, MOVE_HASH, sealed=False)["key_id"] == new
    again = KeyRing(folder)
    assert again.current == new and {k["key_id"] for k in again.public_keys()} == {new, TEST1_KEY_ID}
    created = {k["key_id"]: k["created_at"] for k in ring.public_keys()}[new]  # its file's time, in UTC
    mtime = (folder / f"{new}.pem").stat().st_mtime
    assert created == dt.datetime.fromtimestamp(mtime, dt.timezone.utc).isoformat()


def test_a_key_ring_made_in_a_new_folder_creates_the_folders(tmp_path):
    ring = KeyRing(tmp_path / "a" / "b")
    assert (tmp_path / "a" / "b" / f"{ring.current}.pem").exists()


def test_an_ephemeral_key_is_dated_in_utc_and_never_written(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (key,) = KeyRing.ephemeral().public_keys()
    assert dt.datetime.fromisoformat(key["created_at"]).utcoffset() == dt.timedelta(0)
    assert list(tmp_path.iterdir()) == []


def test_base64_with_characters_outside_the_alphabet_is_refused():
    """A lenient decoder would drop the stray character and accept the key or signature."""
    bad_key = TEST1_PUBLIC_B64[:10] + "*" + TEST1_PUBLIC_B64[10:]
    with pytest.raises(ReceiptError) as info:
        public_key_from_text(bad_key)
    assert str(info.value) == f"not an Ed25519 public key (base64 of 32 bytes): {bad_key[:20]!r}"
    bad_signature = RECEIPT_SIGNATURE[:10] + "!" + RECEIPT_SIGNATURE[10:]
    with pytest.raises(ReceiptError, match="the signature does not verify"):
        check_signature(dict(RECEIPT, signature=bad_signature), _keys())


def test_a_key_file_that_is_not_ed25519_is_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    folder = _ring_folder(tmp_path, ("ec", pem, 1_000_000_000))
    with pytest.raises(ReceiptError, match=r"ec\.pem: not an Ed25519 private key$"):
        KeyRing(folder)


def test_where_a_store_keeps_its_keys(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert KeyRing.beside("sqlite:///games.db").directory.name == "games.db.keys"
    assert KeyRing.beside("sqlite:///:memory:").directory is None
    assert KeyRing.beside("sqlite://").directory is None
    assert KeyRing.beside("postgresql+psycopg://u@h/db").directory.name == "ludex-keys"
    assert KeyRing.beside("sqlite:///games.db", tmp_path / "mine").directory == tmp_path / "mine"
    assert KeyRing.ephemeral().directory is None and not (tmp_path / "ludex-keys" / "current.tmp").exists()
