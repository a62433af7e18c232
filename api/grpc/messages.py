"""Translation between the application service's JSON documents and `ludex.v1` messages.

The service (api/app) answers in JSON-shaped dicts, the HTTP face sends them as they are, and
this module gives each its typed message for the gRPC face (`*_to_pb`). The way back
(`*_from_pb`) is for clients and tests: a finished game's events read over gRPC turn back into
exactly the log the store holds (`entry_from_pb`), so their hashes can be checked.

Values whose shape is the ruleset's travel as `ludex.v1.Value`, which keeps integers exact
(the rule language has no fractions).
"""

from __future__ import annotations

from typing import Any

import orjson
from google.protobuf import struct_pb2

from api.app.inputs import MAX_JSON_DEPTH
from api.grpc.codegen import load

# Generated at build or first use, so invisible to type checkers: typed as Any.
pb2: Any
pb2, _ = load()

# runtime.Event's fields that may be None (absent from the message then).
_RUNTIME_OPTIONAL = ("seat", "move", "node", "zone")


# -- values ---------------------------------------------------------------------------------------

def value_to_pb(value: Any) -> Any:
    """A JSON value of the rule language -> `ludex.v1.Value` (raises TypeError for a float or
    any other type the language has no value for)."""
    if isinstance(value, bool):
        return pb2.Value(flag=value)
    if isinstance(value, int):
        return pb2.Value(number=value)
    if isinstance(value, str):
        return pb2.Value(text=value)
    if value is None:
        return pb2.Value(none=struct_pb2.NULL_VALUE)
    if isinstance(value, (list, tuple)):
        return pb2.Value(list=pb2.ValueList(items=[value_to_pb(v) for v in value]))
    if isinstance(value, dict):
        return pb2.Value(map=pb2.ValueMap(entries=values_to_pb(value)))
    raise TypeError(f"no ludex.v1.Value for {type(value).__name__}")


def values_to_pb(values: dict[str, Any]) -> dict[str, Any]:
    """A JSON object -> its values as `ludex.v1.Value`s by key (for a `map<string, Value>`)."""
    return {str(k): value_to_pb(v) for k, v in values.items()}


def value_from_pb(value: Any, depth: int = 1) -> Any:
    """`ludex.v1.Value` -> its JSON value (str, int, bool, None, list or dict). Raises
    ValueError for a Value with nothing set (null is `none`, said explicitly: an unset Value is
    a client's mistake, not a choice of null) and past `MAX_JSON_DEPTH` levels of lists and
    maps."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"a value nests more than {MAX_JSON_DEPTH} levels deep")
    which = value.WhichOneof("value")
    if which == "list":
        items = []
        for i, v in enumerate(value.list.items):
            try:
                items.append(value_from_pb(v, depth + 1))
            except ValueError as exc:
                raise ValueError(f"[{i}]{exc}" if str(exc).startswith("[") else f"[{i}]: {exc}") from None
        return items
    if which == "map":
        return values_from_pb(value.map.entries, depth + 1)
    if which in ("text", "number", "flag"):
        return getattr(value, which)
    if which == "none":
        return None
    raise ValueError("a Value with none of its fields set (send `none` for null)")


def values_from_pb(values: Any, depth: int = 1) -> dict[str, Any]:
    """A `map<string, Value>` -> a JSON object (ValueError as `value_from_pb`, its message
    starting with the key's path: `['red'][0]: ...`)."""
    out = {}
    for k, v in values.items():
        try:
            out[k] = value_from_pb(v, depth)
        except ValueError as exc:
            text = str(exc)
            raise ValueError(f"[{k!r}]{text}" if text.startswith("[") else f"[{k!r}]: {text}") from None
    return out


# -- moves, decisions, outcomes, receipts ---------------------------------------------------------

def move_to_dict(move: Any) -> dict[str, Any]:
    """`ludex.v1.Move` -> `{name, args}` (raises ValueError for an argument nested deeper than
    `MAX_JSON_DEPTH`)."""
    return {"name": move.name, "args": values_from_pb(move.args)}


def move_to_pb(move: dict[str, Any], text: str = "") -> Any:
    """`{name, args}` -> `ludex.v1.Move`, with its sentence `text` (`api.app.texts.move_texts`)."""
    return pb2.Move(name=move["name"], args=values_to_pb(move.get("args", {})), text=text)


# Serialized moves, each as field 4 of GetLegalMovesResponse, by their JSON and sentence: a
# ruleset's moves recur from position to position and game to game. Emptied when full, so it
# stays bounded.
_MOVE_FIELDS: dict[bytes, bytes] = {}
_MOVE_FIELDS_MAX = 8192
_MOVES_TAG = b"\x22"  # field 4 (moves), wire type 2 (length-delimited)


def _varint(n: int) -> bytes:
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _move_field(move: dict[str, Any], text: str) -> bytes:
    try:
        key = orjson.dumps(move) + b"\0" + text.encode("utf-8", "surrogatepass")  # exact: True and 1, "1" and 1 differ
    except (TypeError, orjson.JSONEncodeError):  # a value orjson refuses: no caching
        key = None
    field = _MOVE_FIELDS.get(key) if key is not None else None
    if field is None:
        raw = move_to_pb(move, text).SerializeToString()
        field = _MOVES_TAG + _varint(len(raw)) + raw
        if key is not None:
            if len(_MOVE_FIELDS) >= _MOVE_FIELDS_MAX:
                _MOVE_FIELDS.clear()
            _MOVE_FIELDS[key] = field
    return field


def legal_moves_to_bytes(listing: dict[str, Any]) -> bytes:
    """`{game_id, version, seat, moves, texts}` (`GameService.legal_moves`) -> a serialized
    `ludex.v1.GetLegalMovesResponse`, each move with its sentence. Each move's bytes are made once and reused (a message's
    repeated field may be written as its elements' encodings one after the other), which costs
    a tenth of building the message: most of a listing's cost over gRPC."""
    head = pb2.GetLegalMovesResponse(game_id=listing["game_id"], version=listing["version"], seat=listing["seat"])
    texts = listing.get("texts") or [""] * len(listing["moves"])
    return head.SerializeToString() + b"".join([_move_field(m, t) for m, t in zip(listing["moves"], texts)])


def decision_to_pb(decision: dict[str, Any]) -> Any:
    """`{step, seats, terminal, stuck}` -> `ludex.v1.Decision`."""
    return pb2.Decision(step=decision["step"], seats=decision["seats"], terminal=decision["terminal"],
                        stuck=decision.get("stuck", False))


def outcome_to_pb(outcome: dict[str, Any] | None) -> Any:
    """An outcome dict (runtime.outcomes) -> `ludex.v1.Outcome`; None while the game runs."""
    if outcome is None:
        return None
    return pb2.Outcome(kind=outcome["kind"], winners=outcome["winners"], scores=values_to_pb(outcome["scores"]),
                       reason=outcome["reason"], ranking=outcome.get("ranking") or [],
                       places=outcome.get("places") or {},
                       tiebreaks=[pb2.ValueMap(entries=values_to_pb(b)) for b in outcome.get("tiebreaks") or []])


def ending_to_pb(ending: dict[str, Any] | None) -> Any:
    """An ending dict (`api.app.texts.ending_of`, the HTTP API's `Ending`) -> `ludex.v1.Ending`;
    None while the game runs."""
    if ending is None:
        return None
    return pb2.Ending(rule=ending["rule"], rule_source=ending["rule_source"], citation=ending["citation"],
                      source=ending["source"], reason=ending["reason"], winners=ending["winners"],
                      scores=values_to_pb(ending["scores"]), text=ending["text"])


def outcome_from_pb(outcome: Any) -> dict[str, Any]:
    """`ludex.v1.Outcome` -> the outcome dict it was made from (runtime.outcomes: ranking,
    places and tiebreaks only where the outcome has them, as they are never empty there)."""
    out: dict[str, Any] = {"kind": outcome.kind, "winners": list(outcome.winners),
                           "scores": values_from_pb(outcome.scores), "reason": outcome.reason}
    if outcome.ranking:
        out["ranking"] = list(outcome.ranking)
    if outcome.places:
        out["places"] = dict(outcome.places)
    if outcome.tiebreaks:
        out["tiebreaks"] = [values_from_pb(b.entries) for b in outcome.tiebreaks]
    return out


def receipt_to_pb(receipt: dict[str, Any]) -> Any:
    """A receipt dict (api/app/receipts.py) -> `ludex.v1.Receipt`."""
    return pb2.Receipt(**{f: receipt[f] for f in ("receipt", "game_id", "version", "head", "sealed", "key_id",
                                                  "signature")})


# -- views ----------------------------------------------------------------------------------------

def _component_to_pb(component: dict[str, Any]) -> Any:
    fields = {k: v for k, v in component.items() if k not in ("name", "kind", "marks")}
    return pb2.Component(name=component["name"], kind=component["kind"],
                         marks=[value_to_pb(m) for m in component.get("marks") or ()], fields=values_to_pb(fields))


def _zone_to_pb(zone: dict[str, Any]) -> Any:
    components = zone.get("components")
    return pb2.ZoneView(
        count=zone["count"],
        visible=components is not None,
        components=[_component_to_pb(c) for c in components or ()],
        slots=[pb2.SlotMarks(slot=s["slot"], marks=[value_to_pb(m) for m in s["marks"]]) for s in zone.get("slots", ())],
    )


def _entity_to_pb(name: str, entity: dict[str, Any]) -> Any:
    fields = {k: v for k, v in entity.items() if k not in ("name", "alive")}
    return pb2.EntityView(name=name, alive=entity["alive"], fields=values_to_pb(fields))


def view_to_pb(view: dict[str, Any]) -> Any:
    """A view (runtime.views.view) -> `ludex.v1.GameView`."""
    return pb2.GameView(
        ruleset=view["ruleset"],
        variants=view["variants"],
        seat=view["seat"],
        ply=view["ply"],
        step=view["step"],
        actor=view["actor"],
        current=view["current"],
        terminal=view["terminal"],
        outcome=outcome_to_pb(view["outcome"]),
        options=values_to_pb(view["options"]),
        zones={key: _zone_to_pb(z) for key, z in view["zones"].items()},
        entities={name: _entity_to_pb(name, e) for name, e in view["entities"].items()},
        vars=values_to_pb(view["vars"]),
        revealed=[pb2.Reveal(**r) for r in view["revealed"]],
    )


# -- events ---------------------------------------------------------------------------------------

def _runtime_event_to_pb(body: dict[str, Any]) -> Any:
    seen_by = body.get("seen_by")
    return pb2.RuntimeEvent(
        ply=body["ply"], kind=body["kind"], rule=body["rule"], source=body["source"],
        **{f: body[f] for f in _RUNTIME_OPTIONAL if body.get(f) is not None},
        args=values_to_pb(body.get("args") or {}),
        refs=body.get("refs") or {},
        hidden_from={k: pb2.Seats(seats=v) for k, v in (body.get("hidden_from") or {}).items()},
        outcome=body.get("outcome") or [],
        seen_by=pb2.Seats(seats=seen_by) if seen_by is not None else None,
        hidden=body.get("hidden"),
    )


def _runtime_event_from_pb(event: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"ply": event.ply, "kind": event.kind, "rule": event.rule, "source": event.source}
    out.update({f: getattr(event, f) if event.HasField(f) else None for f in _RUNTIME_OPTIONAL})
    out.update(args=values_from_pb(event.args), refs=dict(event.refs),
               hidden_from={k: list(v.seats) for k, v in event.hidden_from.items()}, outcome=list(event.outcome),
               seen_by=list(event.seen_by.seats) if event.HasField("seen_by") else None)
    if event.HasField("hidden"):
        out["hidden"] = event.hidden
    return out


def _header_to_pb(body: dict[str, Any]) -> Any:
    return pb2.HeaderBody(
        **{f: body[f] for f in ("format", "game_id", "ruleset", "variants", "seats", "content_hash",
                                "seed_commitment", "created_at")},
        options=values_to_pb(body["options"]),
        sources=[pb2.SourceFile(file=file, text=text) for file, text in body["sources"]],
        sources_hash=body.get("sources_hash"),
    )


def _header_from_pb(header: Any) -> dict[str, Any]:
    out = {f: getattr(header, f) for f in ("format", "game_id", "ruleset", "seats", "content_hash",
                                           "seed_commitment", "created_at")}
    out.update(variants=list(header.variants), options=values_from_pb(header.options),
               sources=[[s.file, s.text] for s in header.sources])
    if header.HasField("sources_hash"):
        out["sources_hash"] = header.sources_hash
    return out


def event_to_pb(event: dict[str, Any], text: str = "") -> Any:
    """A log entry as the service renders it (`GameService.events`: `{game_id, version, kind,
    body, prev_hash?, hash?}`) -> `ludex.v1.Event`, its body typed by kind, with its sentence
    `text` (`api.app.texts.entry_texts`) beside the body."""
    body = event["body"]
    kind = event["kind"]
    typed: dict[str, Any]
    if kind == "header":
        typed = {"header": _header_to_pb(body)}
    elif kind == "reveal":
        typed = {"reveal": pb2.RevealBody(seed=body["seed"], outcome=outcome_to_pb(body.get("outcome")))}
    elif kind in ("commit", "opening"):
        typed = {"runtime": _runtime_event_to_pb(_sealed_as_runtime(kind, body))}
    else:
        typed = {"runtime": _runtime_event_to_pb(body)}
    return pb2.Event(game_id=event["game_id"], version=event["version"], kind=kind,
                     prev_hash=event.get("prev_hash") or "", hash=event.get("hash") or "", text=text, **typed)


def _sealed_as_runtime(kind: str, body: dict[str, Any]) -> dict[str, Any]:
    """A sealed move's commit or opening (api/app/sealed.py) as a runtime event message: the
    seat, and the move once it is the caller's or opened (the commitment and salt are in the
    HTTP log and the export, not in this message)."""
    if kind == "commit":
        return {"ply": body["ply"], "kind": "sealed", "rule": body["rule"], "source": body["source"], "seat": body["seat"],
                "move": body.get("move"), "args": body.get("args") or {}}
    return {"ply": 0, "kind": "opening", "rule": f"opening of event {body['commit']}", "source": "", "seat": body["seat"],
            "move": body["move"], "args": body["args"]}


def entry_from_pb(event: Any) -> dict[str, Any]:
    """`ludex.v1.Event` -> the log entry `{game_id, version, kind, body, prev_hash, hash}`. For a
    finished game's events (ListEvents) this is exactly the stored log, hashes included."""
    which = event.WhichOneof("body")
    if which == "header":
        body = _header_from_pb(event.header)
    elif which == "reveal":
        body = {"seed": event.reveal.seed,
                "outcome": outcome_from_pb(event.reveal.outcome) if event.reveal.HasField("outcome") else None}
    else:
        body = _runtime_event_from_pb(event.runtime)
    return {"game_id": event.game_id, "version": event.version, "kind": event.kind, "body": body,
            "prev_hash": event.prev_hash or None, "hash": event.hash or None}


# -- rulesets and audits --------------------------------------------------------------------------

def diagnostic_to_pb(diagnostic: dict[str, Any]) -> Any:
    """A diagnostic dict (`dsl.Diagnostic.to_dict`) -> `ludex.v1.Diagnostic`."""
    return pb2.Diagnostic(**{f: diagnostic[f] for f in ("severity", "message", "file", "line", "column")},
                          snippet=diagnostic.get("snippet") or "", hint=diagnostic.get("hint") or "")


def ruleset_to_pb(entry: dict[str, Any]) -> Any:
    """A catalogue entry (`Rules.catalogue`) -> `ludex.v1.Ruleset`."""
    seats = entry["seats"] or {}
    return pb2.Ruleset(
        name=entry["name"],
        variants=entry["variants"],
        min_seats=seats.get("min", 0),
        max_seats=seats.get("max", 0),
        options=[
            pb2.RulesetOption(name=o["name"], type=o["type"] or "", default=value_to_pb(o["default"]),
                              doc=o["doc"] or "", range=pb2.IntRange(**o["range"]) if o.get("range") else None)
            for o in entry["options"]
        ],
        content_hash=entry["content_hash"] or "",
        origin=entry["origin"],
        ok=entry["ok"],
        diagnostics=[diagnostic_to_pb(d) for d in entry["diagnostics"]],
    )


def error_details_to_pb(details: dict[str, Any]) -> Any:
    """An error's details that are neither text nor numbers -> `ludex.v1.ErrorDetails`
    (`diagnostics` typed, the others as Values; a value with no Value, such as a float, as text)."""
    values = {}
    for name, value in details.items():
        if name == "diagnostics":
            continue
        try:
            values[name] = value_to_pb(value)
        except TypeError:
            values[name] = pb2.Value(text=str(value))
    return pb2.ErrorDetails(diagnostics=[diagnostic_to_pb(d) for d in details.get("diagnostics") or ()],
                            values=values)


def audit_to_pb(report: dict[str, Any]) -> Any:
    """An audit report (`AuditReport.to_dict`) -> `ludex.v1.AuditResponse`."""
    failure = report["failure"]
    return pb2.AuditResponse(
        ok=report["ok"],
        verified=report["verified"],
        finished=report["finished"],
        game_id=report["game_id"] or "",
        events=report["events"],
        passed=report["passed"],
        skipped=report["skipped"],
        failure=pb2.AuditFailure(**failure) if failure else None,
        outcome=outcome_to_pb(report["outcome"]),
        checks=[pb2.AuditCheck(**c) for c in report["checks"]],
    )
