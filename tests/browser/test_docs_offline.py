"""/docs (Swagger UI) and /redoc (ReDoc) render with no network: every asset comes from Ludex."""

from __future__ import annotations


def test_swagger_ui_renders_every_operation_offline(page, live_service):
    response = page.goto(f"{live_service.url}/docs")
    assert response is not None and response.status == 200
    page.wait_for_selector(".swagger-ui .info .title", timeout=15000)
    assert "Ludex" in page.inner_text(".swagger-ui .info .title")
    page.wait_for_selector(".opblock-summary-path", timeout=15000)
    paths = {el.inner_text().strip().replace("\u200b", "") for el in page.query_selector_all(".opblock-summary-path")}
    assert {"/games", "/games/{game_id}/moves", "/games/{game_id}/stream"} <= paths
    assert page.external_requests == []


def test_redoc_renders_the_api_offline(page, live_service):
    response = page.goto(f"{live_service.url}/redoc")
    assert response is not None and response.status == 200
    page.wait_for_selector("h1", timeout=15000)
    assert "Ludex" in page.inner_text("h1")
    # ReDoc renders each operation as a section headed by its summary.
    page.get_by_role("heading", name="Create Game").wait_for(timeout=15000)
    assert page.external_requests == []
