"""Known answers for what referees rely on: record hashes, canonical JSON, receipt signatures and
the export header, each compared with a value written out here, never one computed by the code
under test.

Where the values come from:
- the record hashes: `sha256sum` (GNU coreutils) of the canonical bytes written out below;
- RFC 8785 (JSON Canonicalization Scheme), sections 3.2.2 and 3.2.3: the RFC's own examples;
- RFC 8032 (Ed25519), section 7.1, TEST 1 and TEST 2: the RFC's secret keys, public keys and
  signatures; the receipt's signature is `openssl pkeyutl -sign -rawin` (OpenSSL 3) over the
  message bytes written out below, with TEST 1's key; its key id is `sha256sum` of the raw key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import random

import pytest
from audit_helpers import play_to_end
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from service_harness import play_service

from api.app import GameService, Rules, audit_log
from api.app.receipts import KeyRing, ReceiptError, check_signature, trusted_keys
from api.store import EventStore
from api.store.chain import (
    LEGACY_LOG_FORMAT,
    LOG_FORMAT,
    UnknownLogFormat,
    event_hash,
    first_broken_link,
    jcs,
    log_format_of,
    record_hash,
)

ZERO = "0" * 64

# ---- record hashes: ludex-log/2 (RFC 8785 bytes of every key but `hash`) and ludex-log/1 ----

# A move record; `hash` is left out of both encodings. Its canonical bytes are the same in both
# formats (sorted keys, no spaces, raw UTF-8):
#   {"body":{"seat":1,"word":"café"},"game_id":"g-1","kind":"move","prev_hash":"000...0","version":2}
MOVE = {"game_id": "g-1", "version": 2, "kind": "move", "body": {"word": "café", "seat": 1},
        "prev_hash": ZERO, "hash": "not hashed"}
MOVE_HASH = "375b4d9928be886278145268dfd9a743331205f1753cf2450d62b75a42cab8a2"

# A record whose body holds 1.0: JCS writes it `1` (ECMAScript number form), the legacy
# `json.dumps` writes `1.0`, so the formats differ:
#   ludex-log/2: {"body":{"n":1},"game_id":"g-1","kind":"chance","prev_hash":"375b...a8a2","version":3}
#   ludex-log/1: {"body":{"n":1.0},"game_id":"g-1","kind":"chance","prev_hash":"375b...a8a2","version":3}
CHANCE = {"game_id": "g-1", "version": 3, "kind": "chance", "body": {"n": 1.0}, "prev_hash": MOVE_HASH}
CHANCE_HASH = {LOG_FORMAT: "98fc7fd88440ea7f75a32540d4c9afa632a1cdfd516d4ba8daed724149974491",
               LEGACY_LOG_FORMAT: "abda68fa7e02e92789f0e38f3f776e08285b130a1de6b5ad3b1dab4072ba972c"}


@pytest.mark.parametrize("log_format", [LOG_FORMAT, LEGACY_LOG_FORMAT])
def test_record_hashes_are_the_published_sha256_of_the_canonical_bytes(log_format):
    assert record_hash(MOVE, log_format) == MOVE_HASH
    assert record_hash(CHANCE, log_format) == CHANCE_HASH[log_format]


@pytest.mark.parametrize("log_format", [LOG_FORMAT, LEGACY_LOG_FORMAT])
@pytest.mark.parametrize("field", ["game_id", "version", "kind", "body", "prev_hash"])
def test_every_hashed_field_changes_the_record_hash(log_format, field):
    edited = dict(MOVE, **{field: {"game_id": "g-2", "version": 3, "kind": "chance", "body": {"seat": 0},
                                   "prev_hash": "1" * 64}[field]})
    assert record_hash(edited, log_format) != MOVE_HASH


def test_a_chain_of_known_records_verifies_and_a_changed_kind_breaks_it():
    # sha256sum of {"body":{"seat":1,"word":"café"},"game_id":"g-1","kind":"move","prev_hash":"000...0","version":1}
    first = dict(MOVE, version=1, hash="dc2cae5f52bb783c00f6b66f365aa7bc894c6cee7689dc2896b263206b9e3c7e")
    # sha256sum of {"body":{"n":1},"game_id":"g-1","kind":"chance","prev_hash":"dc2c...3c7e","version":2}
    second = dict(CHANCE, version=2, prev_hash=first["hash"],
                  hash="f0c422ec9ff471d504b58b0067a6d59ebc2fbff90f2b7ebc239af5a56f673942")
    assert first_broken_link([first, second]) is None
    assert first_broken_link([dict(first, kind="chance"), second]) == (1, "event 1: hash mismatch (the event was edited)")
    assert first_broken_link([first, dict(second, body={"n": 2})]) == (2, "event 2: hash mismatch (the event was edited)")


def test_a_legacy_chain_is_checked_in_the_format_its_header_states():
    # sha256sum of {"body":{"seat":1,"word":"café"},...,"version":1} and, in the legacy form,
    # {"body":{"n":1.0},"game_id":"g-1","kind":"chance","prev_hash":"dc2c...3c7e","version":2}
    first = dict(MOVE, version=1, hash="dc2cae5f52bb783c00f6b66f365aa7bc894c6cee7689dc2896b263206b9e3c7e")
    second = dict(CHANCE, version=2, prev_hash=first["hash"],
                  hash="65b65f34cd4d9002d7872fcc9c46c4b58023b0d81f1e4c38b5ea9ab96ed744a8")
    assert first_broken_link([first, second], LEGACY_LOG_FORMAT) is None
    assert first_broken_link([first, second]) == (2, "event 2: hash mismatch (the event was edited)")
    assert event_hash("g-1", 2, "chance", {"n": 1.0}, first["hash"], LEGACY_LOG_FORMAT) == second["hash"]
    assert event_hash("g-1", 3, "chance", {"n": 1.0}, MOVE_HASH) == CHANCE_HASH[LOG_FORMAT]


def test_the_format_a_log_states():
    assert log_format_of([]) == LOG_FORMAT
    assert log_format_of([{"body": {"format": LEGACY_LOG_FORMAT}}, {"body": {"format": "x"}}]) == LEGACY_LOG_FORMAT
    assert log_format_of([{"body": {"format": 1}}]) == LOG_FORMAT
    assert log_format_of([{"body": "text"}]) == LOG_FORMAT
    assert log_format_of(["text"]) == LOG_FORMAT
    assert log_format_of(iter([{"body": {"format": "ludex-log/9"}}])) == "ludex-log/9"
    with pytest.raises(UnknownLogFormat) as info:
        record_hash(MOVE, "ludex-log/9")
    assert str(info.value) == "unknown log format 'ludex-log/9' (this Ludex reads ludex-log/1, ludex-log/2)"


def test_each_broken_link_is_named():
    first = dict(MOVE, version=1, hash="dc2cae5f52bb783c00f6b66f365aa7bc894c6cee7689dc2896b263206b9e3c7e")
    second = dict(CHANCE, version=2, prev_hash=first["hash"],
                  hash="f0c422ec9ff471d504b58b0067a6d59ebc2fbff90f2b7ebc239af5a56f673942")
    cases = [
        ([{k: v for k, v in first.items() if k != "kind"}], (1, "event 1: malformed log entry (missing 'kind')")),
        ([first, {k: v for k, v in second.items() if k != "prev_hash"}],
         (2, "event 2: malformed log entry (missing 'prev_hash')")),
        (["text"], (1, "event 1: malformed log entry (missing string indices must be integers, not 'str')")),
        ([first, dict(second, game_id="g-2")], (2, "event 2: belongs to game 'g-2', not 'g-1'")),
        ([dict(first, version=True)], (1, "event True: expected version 1 (events missing or reordered)")),
        ([dict(first, version=2)], (1, "event 2: expected version 1 (events missing or reordered)")),
        ([second], (1, "event 2: expected version 1 (events missing or reordered)")),
        ([first, dict(second, prev_hash=ZERO)], (2, "event 2: prev_hash does not match the hash of event 1")),
        ([dict(first, prev_hash=MOVE_HASH)], (1, "event 1: prev_hash does not match the hash of event 0")),
        ([dict(first, body={"x": float("nan")})], (1, "event 1: not canonical JSON (nan is not representable in JCS)")),
    ]
    for entries, expected in cases:
        got = first_broken_link(entries)
        assert got == expected
    assert first_broken_link([first], "ludex-log/9") == (
        1, "event 1: unknown log format 'ludex-log/9' (this Ludex reads ludex-log/1, ludex-log/2)")


# ---- RFC 8785 ----

def test_rfc8785_section_3_2_2_primitive_serialisation():
    value = {
        "numbers": [333333333.33333329, 1e30, 4.50, 2e-3, 0.000000000000000000000000001],
        "string": "\u20ac$\u000f\u000aA'\u0042\u0022\u005c\\\"/",
        "literals": [None, True, False],
    }
    expected = ('{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],'
                '"string":"\u20ac$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}')
    assert jcs(value) == expected.encode("utf-8")
    # section 3.2.4: the same output as UTF-8, byte for byte
    assert jcs(value).hex() == (
        "7b226c69746572616c73223a5b6e756c6c2c747275652c66616c73655d2c226e756d62657273223a5b333333"
        "3333333333332e333333333333332c31652b33302c342e352c302e3030322c31652d32375d2c22737472696e"
        "67223a22e282ac245c75303030665c6e4127425c225c5c5c5c5c222f227d")


def test_rfc8785_section_3_2_3_sorts_keys_by_utf16_code_units():
    value = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With Dagesh",
             "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control",
             "\u00f6": "Latin Small Letter O With Diaeresis"}
    expected = ('{"\\r":"Carriage Return","1":"One","\u0080":"Control","\u00f6":"Latin Small Letter O With '
                'Diaeresis","\u20ac":"Euro Sign","\U0001f600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter '
                'Dalet With Dagesh"}')
    assert jcs(value) == expected.encode("utf-8")


# ---- receipts signed with RFC 8032's TEST 1 key ----

RFC8032_TEST1_SECRET = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60"
RFC8032_TEST1_PUBLIC = "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a"
RFC8032_TEST1_SIGNATURE = (  # of the empty message
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b")
RFC8032_TEST2 = ("4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb",
                 "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
                 "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da"
                 "085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00")
# The TEST 1 secret as the PKCS#8 PEM a key ring stores (`openssl pkey` of 302e0201...0420 + secret).
TEST1_PEM = ("-----BEGIN PRIVATE KEY-----\n"
             "MC4CAQAwBQYDK2VwBCIEIJ1hsZ3v/VpguoRK9JLsLMREScVpezJpGXA7rAMcrn9g\n"
             "-----END PRIVATE KEY-----\n")
TEST1_KEY_ID = "21fe31dfa154a261626bf854046fd2271b7bed4b6abe45aa58877ef47f9721b9"  # sha256sum of the raw key
TEST1_PUBLIC_B64 = "11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo="

# The signed message, RFC 8785 bytes of the receipt without `signature`, and its signature.
RECEIPT_MESSAGE = (b'{"game_id":"g-1","head":"' + MOVE_HASH.encode() + b'","key_id":"' + TEST1_KEY_ID.encode()
                   + b'","receipt":"ludex-receipt/1","sealed":false,"version":2}')
RECEIPT_SIGNATURE = "Fc6YCe4LkmbMJhoFEpjodwFrKVIoFu6LOLSG48FBt6RKWhUAR5CAfJrMrtaPY3AY58+sAtbJH7KDUPwyFgEfDA=="


@pytest.fixture
def rfc_ring(tmp_path):
    """A key ring whose only key is RFC 8032's TEST 1 key."""
    folder = tmp_path / "keys"
    folder.mkdir()
    (folder / f"{TEST1_KEY_ID}.pem").write_text(TEST1_PEM)
    (folder / "current").write_text(TEST1_KEY_ID + "\n")
    return KeyRing(folder)


def test_the_rfc8032_vectors_hold_for_the_signature_library():
    """The vectors themselves, so that a wrong constant above is not mistaken for a receipt bug."""
    test1 = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(RFC8032_TEST1_SECRET))
    assert test1.sign(b"").hex() == RFC8032_TEST1_SIGNATURE
    secret, public, message, signature = RFC8032_TEST2
    assert Ed25519PrivateKey.from_private_bytes(bytes.fromhex(secret)).sign(bytes.fromhex(message)).hex() == signature
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(public)).verify(bytes.fromhex(signature), bytes.fromhex(message))


def test_a_receipt_signed_with_the_rfc8032_key_is_the_known_one(rfc_ring):
    (published,) = rfc_ring.public_keys()
    assert (published["key_id"], published["algorithm"], published["public_key"], published["current"]) == (
        TEST1_KEY_ID, "Ed25519", TEST1_PUBLIC_B64, True)
    assert base64.b64decode(TEST1_PUBLIC_B64).hex() == RFC8032_TEST1_PUBLIC
    receipt = rfc_ring.sign("g-1", 2, MOVE_HASH, sealed=False)
    assert receipt == {"receipt": "ludex-receipt/1", "game_id": "g-1", "version": 2, "head": MOVE_HASH,
                       "sealed": False, "key_id": TEST1_KEY_ID, "signature": RECEIPT_SIGNATURE}
    # The signature is over exactly these bytes: RFC 8032 verification, outside the receipt code.
    public = Ed25519PublicKey.from_public_bytes(bytes.fromhex(RFC8032_TEST1_PUBLIC))
    public.verify(base64.b64decode(RECEIPT_SIGNATURE), RECEIPT_MESSAGE)
    check_signature(receipt, trusted_keys(rfc_ring.public_keys()))


@pytest.mark.parametrize("field,value", [
    ("receipt", "ludex-receipt/2"), ("game_id", "g-2"), ("version", 3), ("version", 1), ("head", "1" * 64),
    ("sealed", True), ("key_id", "0" * 64)])
def test_editing_any_signed_field_of_a_receipt_fails_its_signature_check(field, value):
    receipt = {"receipt": "ludex-receipt/1", "game_id": "g-1", "version": 2, "head": MOVE_HASH,
               "sealed": False, "key_id": TEST1_KEY_ID, "signature": RECEIPT_SIGNATURE}
    keys = {TEST1_KEY_ID: Ed25519PublicKey.from_public_bytes(bytes.fromhex(RFC8032_TEST1_PUBLIC))}
    check_signature(receipt, keys)  # the unedited receipt verifies
    if field == "key_id":  # an unknown key: the key ring names it
        keys["0" * 64] = keys[TEST1_KEY_ID]
    with pytest.raises(ReceiptError) as info:
        check_signature(dict(receipt, **{field: value}), keys)
    assert ("unknown receipt format" if field == "receipt" else "the signature does not verify") in str(info.value)


# ---- the export header ----

@pytest.fixture
def rfc_service(tmp_path, rfc_ring):
    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    yield GameService(store, keys=rfc_ring)
    store.dispose()


def test_the_export_header_of_a_running_game(rfc_service):
    game = play_to_end(rfc_service, "hanabi", "known-answers", random.Random(3), seats=2, moves=3)
    header, log = rfc_service.export_header(game["game_id"]), rfc_service.export(game["game_id"])
    assert sorted(header) == ["export", "game_id", "keys", "receipt"]
    assert (header["export"], header["game_id"]) == ("ludex-export/1", game["game_id"])
    assert [{k: v for k, v in key.items() if k != "created_at"} for key in header["keys"]] == [
        {"key_id": TEST1_KEY_ID, "algorithm": "Ed25519", "public_key": TEST1_PUBLIC_B64, "current": True}]
    receipt = header["receipt"]
    assert len(log) == 5  # the header event, the setup's chance event, three moves
    assert {k: receipt[k] for k in ("receipt", "game_id", "version", "sealed", "key_id")} == {
        "receipt": "ludex-receipt/1", "game_id": game["game_id"], "version": 5, "sealed": True, "key_id": TEST1_KEY_ID}
    # Sealed while the game runs: HMAC-SHA256 keyed by the seed over JCS([game_id, version, hash]).
    sealed_over = f'["{game["game_id"]}",5,"{log[-1]["hash"]}"]'.encode()
    assert receipt["head"] == hmac.new(b"known-answers", sealed_over, hashlib.sha256).hexdigest()
    message = (f'{{"game_id":"{game["game_id"]}","head":"{receipt["head"]}","key_id":"{TEST1_KEY_ID}",'
               f'"receipt":"ludex-receipt/1","sealed":true,"version":5}}').encode()
    Ed25519PublicKey.from_public_bytes(bytes.fromhex(RFC8032_TEST1_PUBLIC)).verify(
        base64.b64decode(receipt["signature"]), message)


def test_an_older_export_header_does_not_vouch_for_a_longer_log(rfc_service):
    """The export's receipt must name the log's last event: a genuine receipt of an earlier head
    says nothing of the events after it."""
    game = play_to_end(rfc_service, "hanabi", "known-answers", random.Random(3), seats=2, moves=3)
    older = rfc_service.export_header(game["game_id"])
    play_service(rfc_service, game, random.Random(4))
    log = rfc_service.export(game["game_id"])
    assert audit_log(Rules(), log, export=rfc_service.export_header(game["game_id"])).verified
    report = audit_log(Rules(), log, export=older)
    assert not report.ok
    assert (report.failure.check, report.failure.version) == ("export_receipt", 5)
    assert report.failure.message == f"the export's receipt is for event 5, the log has {len(log)} events"
