"""Fixtures for browser tests: Debian's Chromium driven by Playwright, and a live HTTP face.

`browser` is one headless Chromium per test module (`make test` installs /usr/bin/chromium;
Playwright's own browser download is not used). `page` is a fresh context and tab per test,
with every request to a host other than 127.0.0.1 aborted and recorded in
`page.external_requests`, so a test can assert that a page needs no outside network.
`live_service` serves the HTTP face of a `GameService` over a fresh SQLite file on a free
loopback port, in a thread of the test process.
"""

from __future__ import annotations

import socket
import threading
import time
from typing import Any, Iterator
from urllib.parse import urlparse

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]", "::1"}


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A launched headless Chromium (playwright.sync_api.Browser), one per test module: Playwright's
    sync API keeps an event loop running in the main thread while it is open, and a later module
    of the same worker (an asyncio test: the language server's, the client's) needs that thread's
    loop stopped."""
    import os

    if not os.access(CHROMIUM, os.X_OK):
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs it (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A new tab in a fresh context; requests leaving the machine are blocked and listed in
    `page.external_requests`."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    external: list[str] = []

    def route(r: Any) -> None:
        url = r.request.url
        scheme = urlparse(url).scheme
        host = urlparse(url).hostname or ""
        if scheme in ("data", "blob", "about") or host in LOCAL_HOSTS:
            r.continue_()
        else:
            external.append(url)
            r.abort()

    context.route("**/*", route)
    tab = context.new_page()
    tab.external_requests = external
    try:
        yield tab
    finally:
        context.close()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveService:
    """A running HTTP face: `url` (http://127.0.0.1:PORT), `service` (the GameService)."""

    def __init__(self, service: Any, app: Any) -> None:
        import uvicorn

        self.service = service
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning", access_log=False)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def start(self, timeout: float = 20.0) -> "LiveService":
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the HTTP face did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture
def live_service(tmp_path: Any) -> Iterator[LiveService]:
    """The HTTP face over a fresh SQLite store, on a free loopback port."""
    from api.app import GameService
    from api.http import create_app
    from api.store import EventStore

    store = EventStore(f"sqlite:///{tmp_path / 'ludex.db'}")
    service = GameService(store)
    live = LiveService(service, create_app(service)).start()
    try:
        yield live
    finally:
        live.stop()
        store.dispose()
