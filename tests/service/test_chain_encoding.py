"""The hash chain's fast canonical encoding (orjson) writes exactly the reference encoders' bytes:
`jcs` those of `rfc8785.dumps` (RFC 8785), `canonical_json` those of sorted-key `json.dumps` (the
legacy `ludex-log/1` hash and the stored body text), and raises where they raise. A stored game's
hashes must never change with the encoder."""

from __future__ import annotations

import json

import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from api.store import chain
from api.store.chain import canonical_json, jcs

# Characters that stress the encoders: controls (escaped), DEL and U+2028 (raw in both), the
# private-use area just below the surrogates and astral ones (JCS orders keys by UTF-16 units),
# non-ASCII letters, and lone surrogates (not UTF-8: the fast path must step aside).
TRICKY = st.sampled_from(["\x00", "\x08", "\t", "\n", "\x0b", "\x1f", '"', "\\", "/", "\x7f", "\u2028",
                          "é", "\uffff", "\ue000", "\U00010000", "\U0001f600", "\U0010ffff", "\ud800", "\udfff"])
TEXT = st.text(st.one_of(st.characters(codec="utf-8"), TRICKY), max_size=8)
# Keys from a small alphabet too, so that one dict often holds keys JCS and code points order apart.
KEYS = st.one_of(st.text(st.one_of(st.characters(codec="utf-8"), TRICKY), max_size=4),
                 st.text(st.sampled_from(["a", "é", "\ue000", "\uffff", "\U00010000", "\U0001f600"]), max_size=3))
INTS = st.one_of(st.integers(-(2**53) - 2, 2**53 + 2), st.integers(), st.sampled_from([2**53 - 1, -(2**53 - 1), 2**53, 2**64]))
SCALARS = st.one_of(st.none(), st.booleans(), INTS, TEXT, st.floats(allow_nan=True))
JSON = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(KEYS, inner, max_size=4)), max_leaves=12)
RECORDS = st.fixed_dictionaries({"game_id": TEXT, "version": INTS, "kind": TEXT, "body": JSON, "prev_hash": TEXT})


def _outcome(encode, value):
    try:
        return encode(value)
    except Exception as exc:  # the reference's error is part of its behaviour
        return type(exc)


def _reference_canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@settings(max_examples=400, deadline=None)
@given(st.one_of(RECORDS, JSON))
def test_fast_encodings_equal_the_reference_encoders(value):
    assert _outcome(jcs, value) == _outcome(rfc8785.dumps, value)
    assert _outcome(canonical_json, value) == _outcome(_reference_canonical, value)


@settings(max_examples=200, deadline=None)
@given(RECORDS)
def test_records_the_fast_path_takes_are_byte_identical(record):
    fast = chain._fast(record, jcs_keys=True)
    if fast is not None:
        assert fast == rfc8785.dumps(record)
    legacy = chain._fast(record, jcs_keys=False)
    if legacy is not None:
        assert legacy.decode("utf-8") == _reference_canonical(record)


@pytest.mark.parametrize("value, fast", [
    ({"game_id": "g", "version": 3, "kind": "move", "body": {"seat": 0, "args": {"card": "red-7"}}, "prev_hash": "0" * 64}, True),
    ({"é": "\U0001f600\n", "a": [True, None, -(2**53 - 1)]}, True),
    ({"éè": 1, "\uffff\ue000": 2}, True),  # keys beyond ASCII but within the BMP: one UTF-16 unit each
    ({"\U0001f600": 1, "\ue000": 2}, False),  # JCS puts the astral key first, code-point order last
    ({"n": 1.0}, False),  # JCS writes 1, orjson 1.0
    ({"n": 2**53}, False),  # beyond the integer domain: rfc8785 raises
    ({"s": "\ud800"}, False),  # a lone surrogate: orjson refuses it
    ({1: "a"}, False),
])
def test_which_values_take_the_fast_path(value, fast):
    assert (chain._fast(value, jcs_keys=True) is not None) == fast
    assert _outcome(jcs, value) == _outcome(rfc8785.dumps, value)
