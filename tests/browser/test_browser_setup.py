"""The browser fixtures work: Chromium renders a page of the live service, offline."""

from __future__ import annotations


def test_chromium_renders_a_service_page_and_blocks_outside_requests(page, live_service):
    response = page.goto(f"{live_service.url}/healthz")
    assert response is not None and response.status == 200
    assert '"status":"ok"' in page.inner_text("body").replace(" ", "")
    # A request to another host never leaves the machine and is recorded for assertions.
    page.evaluate("fetch('http://example.invalid/x').catch(() => null)")
    page.wait_for_timeout(100)
    assert page.external_requests == ["http://example.invalid/x"]
