"""The referee's viewer: one web page over a game's log, served by Ludex itself.

The page (`static/viewer.html`, `viewer.js`, `viewer.css`; no outside assets, no CDN) shows the
audit at the top (every check, the first failing event highlighted and scrolled to, the seed
commitment and its reveal, the receipts), the timeline of events, and for the chosen event the
board right after it (zones and entities laid out from the view, cards as chips, counts for
hidden zones), whose turn it is and the legal moves then, and the rule that produced the event
with its pinned source text at file:line.

It reads two JSON endpoints under its base URL `/games/{id}/viewer`:
- `data`: `bundle(...)`: header, sources, events (as the caller may see them), audit, seed;
- `step?at=N&seat=S` (S: a seat number, `spectator` or `all`): `api.app.log.replay_view`.

`ludex serve` answers them from the `GameService` (a seat token in the page's URL fragment,
`#token=...`, is sent as a bearer token: during a game the page shows only what that token may
see); `ludex view LOG` answers them from a log file (`LogFileSource`), which holds everything.
"""

from __future__ import annotations

import html
from importlib import resources
from typing import Any, Mapping, Protocol, Sequence

from fastapi import FastAPI, Header, Query
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from api.app.errors import InvalidRequest, NotFound
from api.app.log import audit_log, compile_pinned, header_of, replay_view, revealed_seed
from api.app.rules import Rules
from api.app.texts import entry_texts
from runtime.display import display_hints

ASSETS = {"viewer.js": "text/javascript", "viewer.css": "text/css"}
ASSETS_URL = "/viewer/assets"


class ViewerSource(Protocol):
    """Where the viewer's data comes from: the service, or a log file."""

    def viewer_data(self, game_id: str, token: str | None) -> dict[str, Any]: ...

    def viewer_step(self, game_id: str, token: str | None, at: int, seat: int | str | None) -> dict[str, Any]: ...


def parse_seat(seat: str) -> int | str | None:
    """The `seat` query value: `spectator` -> None, `all` -> "all", a number -> that seat.
    Raises InvalidRequest (`bad_seat`)."""
    if seat == "spectator":
        return None
    if seat == "all":
        return "all"
    if seat.isdigit() and len(seat) < 4:
        return int(seat)
    raise InvalidRequest("bad_seat", f"seat must be a seat number, 'spectator' or 'all', not {seat[:20]!r}")


def bundle(
    entries: Sequence[Mapping[str, Any]],
    shown: Sequence[Mapping[str, Any]],
    report: Mapping[str, Any],
    finished: bool,
    my_seat: int | None,
    any_seat: bool,
    texts: Sequence[str] = (),
    display: Mapping[str, Any] | None = None,
    named: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """The viewer's `data`: `{game_id, finished, my_seat, any_seat, header (without its rule
    text), sources: {file: text}, seed (None until revealed), events: shown, audit: report}`.
    `entries` is the full log (for the header and the seed), `shown` the events as the caller
    may see them, `texts` their sentences (`api.app.texts`), in the same order, `display` the
    rules' display hints (`display_hints`), `named` (empty, or one map an event) the arguments
    an event shows as slots that its sentence names (`{argument: component name}`), since the
    move made the component public to the caller."""
    header = dict(entries[0]["body"])
    sources = {str(f): str(t) for f, t in header.pop("sources", [])}
    return {
        "game_id": entries[0]["game_id"],
        "finished": finished,
        "my_seat": my_seat,
        "any_seat": any_seat,
        "header": header,
        "sources": sources,
        "seed": revealed_seed(entries) if finished else None,
        "events": list(shown),
        "texts": list(texts),
        "named": [dict(n) for n in named],
        "display": dict(display or display_hints(None)),
        "audit": dict(report),
    }


class LogFileSource:
    """A log file's game for `ludex view`: the file holds the whole log, so every seat's view
    (and everything) may be shown; its export header's receipt and the `receipts` players
    kept are audited."""

    def __init__(self, entries: list[dict[str, Any]], export: dict[str, Any] | None, rules: Rules | None = None,
                 receipts: Sequence[Any] = ()) -> None:
        self.entries = entries
        self.export = export
        self.rules = rules or Rules()
        self.game_id = str(entries[0].get("game_id", "log")) if entries else "log"
        self._report = audit_log(self.rules, entries, export=export, receipts=receipts).to_dict()

    def _check(self, game_id: str) -> None:
        if game_id != self.game_id or not self.entries:
            raise NotFound("game_not_found", f"this viewer shows game {self.game_id!r} only")

    def viewer_data(self, game_id: str, token: str | None) -> dict[str, Any]:
        self._check(game_id)
        finished = any(e.get("kind") == "reveal" for e in self.entries)
        rules = self._ruleset()
        return bundle(self.entries, self.entries, self._report, finished, None, True,
                      texts=entry_texts(rules, self.entries), display=display_hints(rules))

    def _ruleset(self) -> Any:
        """The compiled rules the log pins, for the events' sentences (None when they do not
        compile: the audit says why, and the sentences are generic)."""
        try:
            return compile_pinned(self.rules, header_of(self.entries))
        except Exception:  # a tampered or foreign log: the audit reports it
            return None

    def viewer_step(self, game_id: str, token: str | None, at: int, seat: int | str | None) -> dict[str, Any]:
        self._check(game_id)
        from api.app.log import LogError

        try:
            return replay_view(self.rules, self.entries, at, seat)
        except LogError as exc:
            raise InvalidRequest("corrupt_log", str(exc)) from exc


def page(game_id: str) -> str:
    """The viewer's HTML for `game_id`."""
    text = resources.files(__package__).joinpath("static/viewer.html").read_text(encoding="utf-8")
    base = f"/games/{game_id}/viewer"
    return (text.replace("{{BASE}}", html.escape(base, quote=True))
            .replace("{{ASSETS}}", ASSETS_URL).replace("{{GAME_ID}}", html.escape(game_id)))


def add_viewer_routes(app: FastAPI, source: ViewerSource) -> None:
    """Serve the viewer page, its assets and its two JSON endpoints on `app`."""

    def token_of(authorization: str | None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip() or None
        return None

    @app.get(ASSETS_URL + "/{name}", include_in_schema=False)
    async def asset(name: str) -> Response:
        if name not in ASSETS:
            raise NotFound("not_found", f"no viewer asset {name!r}")
        body = resources.files(__package__).joinpath(f"static/{name}").read_bytes()
        return Response(body, media_type=ASSETS[name])

    # The page and its two endpoints are the viewer's own, not the API: left out of OpenAPI.
    @app.get("/games/{game_id}/viewer", response_class=HTMLResponse, include_in_schema=False)
    async def viewer(game_id: str) -> HTMLResponse:
        """The referee's viewer page (timeline, board at each event, rule citations, audit).
        A seat token goes in the URL fragment: `#token=...`."""
        return HTMLResponse(page(game_id))

    @app.get("/games/{game_id}/viewer/data", include_in_schema=False)
    async def viewer_data(game_id: str, authorization: str | None = Header(None)) -> JSONResponse:
        """The viewer's data: header, pinned rule text, events as the caller may see them, audit."""
        return JSONResponse(await run_in_threadpool(source.viewer_data, game_id, token_of(authorization)))

    @app.get("/games/{game_id}/viewer/step", include_in_schema=False)
    async def viewer_step(
        game_id: str, at: int = Query(ge=1), seat: str = Query("spectator"), authorization: str | None = Header(None)
    ) -> JSONResponse:
        """The board right after event `at` as `seat` sees it (a seat number, `spectator`, or
        `all` once the game is over)."""
        parsed = parse_seat(seat)
        return JSONResponse(await run_in_threadpool(source.viewer_step, game_id, token_of(authorization), at, parsed))


def create_file_viewer_app(source: LogFileSource) -> FastAPI:
    """The app of `ludex view LOG`: the viewer over one log file; `/` opens it."""
    from api.app.errors import ServiceError

    app = FastAPI(title="Ludex viewer", docs_url=None, redoc_url=None, openapi_url=None)

    @app.exception_handler(ServiceError)
    async def _service_error(_request: Any, exc: ServiceError) -> JSONResponse:
        status = {"not_found": 404, "invalid": 400, "forbidden": 403}.get(exc.kind, 400)
        return JSONResponse({"error": exc.to_dict()}, status_code=status)

    @app.get("/", include_in_schema=False)
    async def home() -> RedirectResponse:
        return RedirectResponse(f"/games/{source.game_id}/viewer")

    add_viewer_routes(app, source)
    return app
