"""A web page on another origin plays through the API: CORS lets it create a game, a stream
ticket lets its EventSource follow the game as a seat (an EventSource cannot send headers)."""

from __future__ import annotations

import functools
import http.server
import threading
from typing import Any, Iterator

import pytest
from conftest import LiveService, _free_port

from api.app import GameService
from api.http import create_app
from api.store import EventStore
from ludex.client import Client

PAGE = """<!doctype html><title>Ludex page</title><script>
async function start(api) {
  const created = await (await fetch(api + "/games", {method: "POST",
    headers: {"content-type": "application/json"},
    body: JSON.stringify({ruleset: "hanabi", seats: 2, seed: "browser"})})).json();
  const auth = {authorization: "Bearer " + created.tokens[0]};
  const ticket = await (await fetch(`${api}/games/${created.game_id}/stream-ticket`,
    {method: "POST", headers: auth})).json();
  window.events = [];
  const source = new EventSource(`${api}/games/${created.game_id}/stream?ticket=${ticket.ticket}`);
  source.onmessage = (m) => {
    const event = JSON.parse(m.data);
    window.events.push(event);
    if (event.kind === "reveal") source.close();
  };
  return created;
}
</script>"""


@pytest.fixture
def page_origin(tmp_path) -> Iterator[str]:
    """An HTTP server of its own (another origin than the API's) serving PAGE at /."""
    (tmp_path / "index.html").write_text(PAGE, encoding="utf-8")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *a: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", _free_port()), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture
def cors_service(tmp_path, page_origin) -> Iterator[LiveService]:
    """The HTTP face, letting pages from `page_origin` call it."""
    store = EventStore(f"sqlite:///{tmp_path / 'cors.db'}")
    service = GameService(store)
    live = LiveService(service, create_app(service, cors_origins=[page_origin])).start()
    try:
        yield live
    finally:
        live.stop()
        store.dispose()


def _play(url: str, game: dict[str, Any]) -> None:
    with Client(url) as ludex:
        while not (view := ludex.view(game["game_id"])).terminal:
            seat = view.decision.seats[0]
            legal = ludex.legal_moves(game["game_id"], game["tokens"][seat])
            ludex.submit(game["game_id"], game["tokens"][seat], legal.moves[0], legal.version)


def test_a_page_on_another_origin_creates_a_game_and_streams_it_as_a_seat(page, page_origin, cors_service):
    page.goto(page_origin + "/")
    game = page.evaluate("api => start(api)", cors_service.url)
    page.wait_for_function("window.events && window.events.length > 0")
    _play(cors_service.url, game)
    page.wait_for_function("window.events.length && window.events[window.events.length - 1].kind === 'reveal'",
                           timeout=30000)
    events = page.evaluate("window.events")
    assert [e["version"] for e in events] == list(range(1, len(events) + 1))
    # The ticket reads as seat 0: in Hanabi a seat never sees its own cards, so the cards seat 0
    # played or discarded reached it as slot references (a spectator sees them by name).
    own = [e["body"]["args"] for e in events if e["kind"] == "move" and e["body"]["seat"] == 0]
    assert any(str(v).startswith("hand[0]@") for args in own for v in args.values()), own
    assert page.external_requests == []


def test_without_cors_a_page_on_another_origin_cannot_call_the_api(page, page_origin, live_service):
    page.goto(page_origin + "/")
    refused = page.evaluate("api => start(api).then(() => 'called', e => e.name)", live_service.url)
    assert refused == "TypeError"  # the browser blocks the response: "Failed to fetch"
