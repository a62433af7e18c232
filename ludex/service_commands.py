"""Service commands of the `ludex` CLI: serve, replay, audit, export, keys, view.

`register(app)` adds them to the Typer app built in `ludex/cli.py`. They are thin faces over
`api.app`: `serve` runs the HTTP and gRPC faces over one `GameService` in one event loop;
`replay` and `audit` work on an exported log file alone, with no database or server.
Run standalone with `python -m ludex.service_commands`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import signal
import socket
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Iterator, Optional

import typer

from api.app.logschema import strict_loads
from api.store import DEFAULT_URL
from ludex.cli import fail


def _read_log(path: Path) -> list[dict[str, Any]]:
    """The log records of an export (its header line, if any, left out)."""
    return _read_export(path)[1]


def _read_export(path: Path) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """`(export header or None, log records)` of a file written by `ludex export`: JSON lines,
    the first `{export, game_id, keys, receipt}`, then one record per line. Bad lines exit 1
    naming the line."""
    entries = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}", "give the path of a log written by `ludex export` or `--save`")
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = strict_loads(line)
        except json.JSONDecodeError as exc:
            typer.echo(f"{path}:{number}: not a JSON line ({exc.msg})", err=True)
            raise typer.Exit(1) from exc
        except ValueError as exc:  # duplicate keys, NaN
            typer.echo(f"{path}:{number}: not a log line ({exc})", err=True)
            raise typer.Exit(1) from exc
        if not isinstance(entry, dict):
            typer.echo(f"{path}:{number}: a log line must be a JSON object", err=True)
            raise typer.Exit(1)
        entries.append(entry)
    if entries and "export" in entries[0]:
        return entries[0], entries[1:]
    return None, entries


def _run_game_log(folder: Path, game: int | None) -> list[dict[str, Any]]:
    """The log records of game `game` of the run in `folder` (`ludex simulate --out`), rebuilt from its row."""
    from ludex.simulation.runfile import RunFileError, game_entries

    if game is None:
        fail(f"{folder} is a folder", "give --game N to replay game N of a run kept with `simulate --out`")
    try:
        return game_entries(folder, game)[1:]  # the export header left out, as _read_log does
    except RunFileError as exc:
        fail(str(exc))


def _read_receipt(path: Path) -> Any:
    """A receipt kept by a player: the receipt object, or a whole move response holding one."""
    try:
        value = strict_loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror or exc}", "give a file holding a receipt from a move response")
    except ValueError as exc:
        fail(f"{path}: not JSON ({exc})", "a receipt file holds the JSON of a receipt or of a move response")
    if isinstance(value, dict) and isinstance(value.get("receipt"), dict):
        value = value["receipt"]
    return value


def _key_ring(db: str, keys: Optional[Path]) -> Any:
    from api.app.receipts import KeyRing, ReceiptError

    try:
        return KeyRing.beside(db, keys)
    except (OSError, ReceiptError, ValueError) as exc:
        fail(f"cannot open the receipt keys: {exc}", "check --keys (a folder of Ed25519 PEM keys)")


_DB_HINT = "e.g. sqlite:///ludex.db or postgresql+psycopg://USER@HOST:5432/DATABASE"


def open_store(db: str, create: bool = True) -> Any:
    """The EventStore at the `--db` URL `db`. A URL that cannot be parsed, names no driver
    Ludex has, or whose database cannot be reached stops the command (`fail`: exit 2) saying
    which, with the password hidden: it is the user's input, not an internal error."""
    import sqlalchemy as sa

    from api.store import EventStore

    try:
        url = sa.make_url(db)
        shown = url.render_as_string(hide_password=True)
    except (sa.exc.ArgumentError, ValueError) as exc:
        fail(f"--db is not a database URL: {exc}", _DB_HINT)
    try:
        return EventStore(db, create=create)
    except sa.exc.NoSuchModuleError:
        fail(f"--db {shown}: there is no database driver {url.drivername!r}",
             "Ludex stores games in SQLite (sqlite:///FILE) or PostgreSQL (postgresql+psycopg://...)")
    except ImportError as exc:
        fail(f"--db {shown}: the driver for {url.drivername!r} is not installed ({exc.name or exc})", _DB_HINT)
    except (sa.exc.ArgumentError, ValueError) as exc:
        fail(f"--db {shown} is not a valid database URL: {exc}", _DB_HINT)
    except sa.exc.OperationalError as exc:
        reason = str(exc.orig if exc.orig is not None else exc).strip().splitlines()[0]
        fail(f"cannot open the store at {shown}: {reason}",
             "does the file's folder exist, and may Ludex write there?" if url.get_backend_name() == "sqlite"
             else "is the database server running, and do the user and the database exist?")


def _safe_url(url: str) -> str:
    import sqlalchemy as sa

    return sa.make_url(url).render_as_string(hide_password=True)


def _tune_gc() -> None:
    """Keep CPython's cyclic garbage collector from pausing the event loop.

    A full collection walks every tracked object: the compiled rules, the modules and every
    live game, so it stopped the loop for tens of milliseconds and made the whole of the
    legal-moves p99 at 500 moves/s (11-45 ms, against 1.5-2 ms without; bench/service/README.md).
    What exists once the rules are compiled lives as long as the process: `gc.freeze()` moves
    it out of the collector's sight (the use the standard library documents for it). A larger
    first threshold makes young collections rarer; garbage cycles are still collected."""
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)


async def _serve(
    db: str, host: str, http_port: int, grpc_port: int, ruleset_dirs: tuple[Path, ...] = (), keys: Optional[Path] = None,
    cors_origins: tuple[str, ...] = (),
    access_log: bool = False,
    budget: int | None = None,
) -> None:
    import uvicorn
    from sse_starlette.sse import AppStatus

    class HttpServer(uvicorn.Server):
        """uvicorn minus its own signal handling: `_serve` owns SIGINT/SIGTERM, so one signal
        stops both faces and the process exits normally after closing the store."""

        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

    from api.app import GameService, Rules
    from api.grpc.server import start_grpc_server
    from api.http import create_app
    from api.http.access_log import json_lines

    # The gRPC face runs service calls on the loop's default executor: size it for many
    # concurrent calls and streams, like the HTTP face's thread pool.
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64, thread_name_prefix="ludex"))
    http_socket = _bind(host, http_port)
    if grpc_port:  # grpc's core logs its own multi-line bind failure: find out first
        try:
            _bind(host, grpc_port, "gRPC", "--grpc-port").close()
        except typer.Exit:
            http_socket.close()
            raise
    try:
        store = open_store(db)
    except typer.Exit:
        http_socket.close()
        raise
    limits = {} if budget is None else {"budget": budget}
    service = GameService(store, Rules(ruleset_dirs), keys=_key_ring(db, keys), **limits)
    listener = store.listener(service.notifier.notify)
    if listener is not None:
        # Other processes' commits arrive as notifications: polling is only a safety net.
        service.poll_interval = 2.0
    service.rulesets()  # compile the bundled rulesets now, not during the first requests
    _tune_gc()
    try:
        grpc_server, bound = await start_grpc_server(service, host, grpc_port)
    except (OSError, RuntimeError) as exc:
        http_socket.close()
        store.dispose()
        fail(f"cannot serve gRPC on {host}:{grpc_port}: {exc}", "is another server using the port? choose another with --grpc-port (0: any free port)")
    config = uvicorn.Config(create_app(service, cors_origins=cors_origins, access_log=json_lines() if access_log else None), host=host, port=http_port, log_level="warning", access_log=False)
    server = HttpServer(config)

    def stop() -> None:
        server.should_exit = True
        AppStatus.should_exit = True  # ends open event streams, which would hold uvicorn open

    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop)
    typer.echo(
        f"ludex: HTTP on http://{host}:{http_socket.getsockname()[1]} (API docs at /docs), gRPC on {host}:{bound}, "
        f"store {_safe_url(db)}",
        err=True,
    )
    try:
        await server.serve(sockets=[http_socket])
    finally:
        await grpc_server.stop(grace=1)
        if listener is not None:
            listener.stop()
        store.dispose()


def _bind(host: str, port: int, face: str = "HTTP", flag: str = "--http-port") -> socket.socket:
    """A listening TCP socket for the HTTP face, bound before anything starts so a busy port
    is one clear error (uvicorn would log it and exit on its own)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = infos[0]
        sock = socket.socket(family, kind, proto)
    except OSError as exc:
        fail(f"cannot listen on {host}:{port}: {exc}", "check --host")
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        fail(f"cannot serve {face} on {host}:{port}: {exc.strerror or exc}", f"is another server using the port? choose another with {flag} (0: any free port)")
    sock.setblocking(False)
    return sock


KEYS_HELP = ("Folder of the Ed25519 keys that sign receipts (default: beside a SQLite store, "
             "<file>.keys; ./ludex-keys for PostgreSQL); created with a first key when missing.")


def serve(
    db: str = typer.Option(
        DEFAULT_URL, "--db", envvar="LUDEX_DB", help="SQLAlchemy URL of the event store (SQLite file or PostgreSQL)."
    ),
    http_port: int = typer.Option(8000, "--http-port", help="HTTP port (OpenAPI docs at /docs)."),
    grpc_port: int = typer.Option(50051, "--grpc-port", help="gRPC port (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on (0.0.0.0 for all)."),
    rulesets: list[Path] = typer.Option(
        [],
        "--rulesets",
        help="Also serve the rulesets in this folder: each subfolder with game.ludex, each .ludex file "
        "(repeatable; re-read for every new game).",
    ),
    keys: Optional[Path] = typer.Option(None, "--keys", envvar="LUDEX_KEYS", help=KEYS_HELP),
    cors_origin: list[str] = typer.Option(
        [],
        "--cors-origin",
        help="Let browser pages from this origin call the HTTP API (e.g. https://play.example; * for any; "
        "repeatable). Default: none.",
    ),
    access_log: bool = typer.Option(
        False, "--access-log", help="Write one JSON line per HTTP request to stderr (game, seat, status, latency)."
    ),
    budget: Optional[int] = typer.Option(
        None,
        "--budget",
        min=1,
        help="Execution budget in steps of each setup, move, trigger cascade and legal-moves listing "
        "(default 1000000); rules that run out fail with budget_exceeded and the game is unchanged.",
    ),
) -> None:
    """Serve games over HTTP and gRPC from one event store."""
    for d in rulesets:
        if not d.is_dir():
            fail(f"--rulesets {d}: no such folder", "give a folder holding NAME/game.ludex folders or NAME.ludex files")
    asyncio.run(_serve(db, host, http_port, grpc_port, tuple(rulesets), keys, tuple(cors_origin), access_log, budget))


def replay(
    log: Path = typer.Argument(..., help="An exported log (JSON lines)."),
    at: Optional[int] = typer.Option(None, "--at", help="Show the game right after event N (default: the end)."),
    final: bool = typer.Option(False, "--final", help="Show the game as it ended (the default without --at)."),
    seat: Optional[int] = typer.Option(None, "--seat", help="Show this seat's view (default: spectator)."),
    as_json: bool = typer.Option(False, "--json", help="Print the view as JSON instead of the board."),
    game: Optional[int] = typer.Option(None, "--game", help="With a run folder (simulate --out DIR): replay its game N."),
) -> None:
    """Show a logged game right after event N (or at its end): the board as `ludex play` draws
    it, or the view as JSON. LOG may also be a run folder (`simulate --out DIR`) with --game N."""
    from api.app import LogError, Rules, replay_view

    if final and at is not None:
        fail("--at and --final both say where to stop", "give one of them")

    entries = _run_game_log(log, game) if game is not None or log.is_dir() else _read_log(log)
    try:
        result = replay_view(Rules(), entries, at, seat)
    except LogError as exc:
        where = f"event {exc.version}: " if exc.version is not None and f"event {exc.version}" not in str(exc) else ""
        typer.echo(f"replay failed: {where}{exc}", err=True)
        raise typer.Exit(1) from exc
    except (KeyError, TypeError, ValueError) as exc:
        typer.echo(f"replay failed: the log is malformed ({type(exc).__name__}: {exc})", err=True)
        raise typer.Exit(1) from exc
    if as_json:
        typer.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    from rich.console import Console

    from ludex.board import board, turn_line

    title = f"{turn_line(result['view'])} · event {result['at']}" + (
        f" (the state after event {result['state_after']})" if result["state_after"] != result["at"] else ""
    )
    console = Console()
    console.print(board(result["view"], title=title, hints=_display_hints(entries)))
    if result.get("ending"):
        console.print(f"Game over: {result['ending']['text']}", style="bold", markup=False, highlight=False, soft_wrap=True)


def _display_hints(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The display hints of the rules a log pins (`runtime.display`), for the board; the
    defaults when those rules do not compile (the audit says why)."""
    from api.app.log import compile_pinned, header_of
    from api.app.rules import Rules
    from runtime.display import display_hints

    try:
        return display_hints(compile_pinned(Rules(), header_of(entries)))
    except Exception:  # a tampered or foreign log: drawn without hints
        return display_hints(None)


def audit(
    log: Path = typer.Argument(..., help="An exported log (JSON lines)."),
    as_json: bool = typer.Option(False, "--json", help="Print the full report as JSON."),
    allow_unfinished: bool = typer.Option(
        False, "--allow-unfinished", help="Exit 0 for a log that verifies as far as it goes but whose game is not over."
    ),
    receipt: list[Path] = typer.Option(
        [], "--receipt", help="A receipt a player kept (JSON of the receipt or of a move response); repeatable."
    ),
    key: list[str] = typer.Option(
        [], "--key", help="Trust only this public key (base64, as GET /keys publishes it) for receipts; repeatable."
    ),
) -> None:
    """Verify a log: exit 0 only for a fully verified finished game.

    Checks the log format and the exact shape of every record, the hash chain, the export's
    signed receipt and every --receipt (the log holds each receipted head), the pinned rules,
    the seed commitment, every move and chance outcome, and the announced outcome, and prints
    each check with what it verified or why it could not run.
    """
    from api.app import Rules, audit_log

    export, entries = _read_export(log)
    held = [_read_receipt(r) for r in receipt]
    report = audit_log(Rules(), entries, export=export, receipts=held, pinned_keys=key or None)
    accepted = report.verified or (report.ok and allow_unfinished and not report.finished)
    if as_json:
        typer.echo(json.dumps(report.to_dict(), indent=2))
        raise typer.Exit(0 if accepted else 1)
    not_checked = f"not checked: {', '.join(report.skipped)}" if report.skipped else ""
    if report.verified:
        typer.echo(f"verified: {report.events} events, a finished game; every check passed")
    elif report.ok and report.finished and export is None:
        # A finished game whose export header line is gone: the log is complete, but no signed
        # receipt vouches for its last event, so it could have been cut short.
        typer.echo(f"NOT VERIFIED: {report.events} events of a finished game, but the export header is missing "
                   f"(the first line `ludex export` writes, with the signed receipt of the last event; {not_checked})")
    elif report.ok and report.finished:
        typer.echo(f"NOT VERIFIED: {report.events} events of a finished game ({not_checked})")
    elif report.ok and allow_unfinished:
        typer.echo(f"verified: {report.events} events of an unfinished game ({not_checked})")
    elif report.ok:
        typer.echo(f"NOT VERIFIED: {report.events} events of an unfinished game ({not_checked}); "
                   "--allow-unfinished accepts it")
    else:
        assert report.failure is not None
        typer.echo(f"FAILED [{report.failure.check}] {report.failure.message}")
    for check in report.checks:
        typer.echo(f"  {check.status:<8} {check.name:<16} {check.detail}")
    if not receipt:
        typer.echo("  (no --receipt given: a receipt a player kept proves the log holds the head they saw)")
    raise typer.Exit(0 if accepted else 1)


def export(
    game_id: str = typer.Argument(..., help="The game's id."),
    db: str = typer.Option(DEFAULT_URL, "--db", envvar="LUDEX_DB", help="SQLAlchemy URL of the event store."),
    keys: Optional[Path] = typer.Option(None, "--keys", envvar="LUDEX_KEYS", help=KEYS_HELP),
) -> None:
    """Print a game's complete log as JSON lines.

    The first line is the export header `{export, game_id, keys, receipt}`: the public keys and
    a signed receipt of the log's last event. An operator tool: reads the database directly
    and includes events not yet public.
    """
    import sqlalchemy as sa

    from api.app import GameService, ServiceError

    store = open_store(db, create=False)
    try:
        service = GameService(store, keys=_key_ring(db, keys))
        entries = [service.export_header(game_id), *service.export(game_id)]
    except ServiceError as exc:
        typer.echo(exc.message, err=True)
        raise typer.Exit(1) from exc
    except sa.exc.SQLAlchemyError as exc:
        typer.echo(f"cannot read the store at {_safe_url(db)}: {exc.__class__.__name__}: {getattr(exc, 'orig', None) or exc}", err=True)
        raise typer.Exit(1) from exc
    finally:
        store.dispose()
    out = sys.stdout
    for entry in entries:
        out.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")


def view(
    log: Path = typer.Argument(..., help="An exported log (JSON lines), as `ludex export` writes it."),
    port: int = typer.Option(0, "--port", help="HTTP port of the viewer (0: any free port)."),
    host: str = typer.Option("127.0.0.1", "--host", help="Interface to listen on."),
    open_browser: bool = typer.Option(True, "--open/--no-open", help="Open the page in a web browser."),
    receipt: list[Path] = typer.Option(
        [], "--receipt", help="A receipt a player kept, checked in the page's audit (as for `ludex audit`); repeatable."
    ),
) -> None:
    """Open a logged game in the referee's viewer (a local web page; no outside network).

    Serves the page until Ctrl-C: timeline, the board after each event, rule citations from
    the pinned rule text, the audit with its first failing event.
    """
    import uvicorn

    from api.viewer import LogFileSource, create_file_viewer_app

    export, entries = _read_export(log)
    if not entries:
        fail(f"{log} holds no log records", "give a log written by `ludex export`")
    source = LogFileSource(entries, export, receipts=[_read_receipt(r) for r in receipt])
    sock = _bind(host, port, "the viewer", "--port")
    url = f"http://{host}:{sock.getsockname()[1]}/games/{source.game_id}/viewer"
    typer.echo(f"ludex: viewer at {url} (Ctrl-C stops it)", err=True)
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    config = uvicorn.Config(create_file_viewer_app(source), log_level="warning", access_log=False)
    uvicorn.Server(config).run(sockets=[sock])


def keys(
    db: str = typer.Option(DEFAULT_URL, "--db", envvar="LUDEX_DB", help="SQLAlchemy URL of the event store."),
    keys_dir: Optional[Path] = typer.Option(None, "--keys", envvar="LUDEX_KEYS", help=KEYS_HELP),
    rotate: bool = typer.Option(False, "--rotate", help="Create a new signing key; old keys stay published."),
) -> None:
    """Print the public keys that sign receipts, as JSON (after --rotate, with the new one)."""
    ring = _key_ring(db, keys_dir)
    if rotate:
        ring.rotate()
    typer.echo(json.dumps({"keys": ring.public_keys()}, indent=2))


def migrate(
    db: str = typer.Option(DEFAULT_URL, "--db", envvar="LUDEX_DB", help="SQLAlchemy URL of the event store."),
) -> None:
    """Create the store's schema, or upgrade it to the newest revision (`serve` does this too)."""
    import sqlalchemy as sa

    store = open_store(db, create=False)
    try:
        done = store.create_tables()
    except sa.exc.SQLAlchemyError as exc:
        fail(f"cannot migrate the store at {_safe_url(db)}: {getattr(exc, 'orig', None) or exc}",
             "check --db (or LUDEX_DB) and that the database is reachable")
    finally:
        store.dispose()
    applied = f"applied {', '.join(done.applied)}" if done.applied else (
        "created" if done.before is None else "already up to date")
    typer.echo(f"store {_safe_url(db)}: schema revision {done.after} ({applied})")


def register(app: typer.Typer) -> None:
    """Add `serve`, `migrate`, `replay`, `audit`, `export`, `keys` and `view` to the `ludex` command."""
    app.command("serve")(serve)
    app.command("migrate")(migrate)
    app.command("replay")(replay)
    app.command("audit")(audit)
    app.command("export")(export)
    app.command("keys")(keys)
    app.command("view")(view)


if __name__ == "__main__":
    standalone = typer.Typer(no_args_is_help=True, add_completion=False, help="Ludex service commands.")
    register(standalone)
    standalone()
