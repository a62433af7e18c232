"""API docs that work offline: Swagger UI at /docs and ReDoc at /redoc, their scripts and styles
served by Ludex itself from the assets the `fastapi-offline` package ships (no CDN).

Both pages carry a Content-Security-Policy that lets them load nothing from another host, so a
browser never leaves the machine for them (ReDoc's bundle would otherwise fetch its vendor logo).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

ASSETS = Path(fastapi_offline.__file__).parent / "static"
ASSETS_URL = "/docs-assets"
# Inline scripts and styles: Swagger UI's start-up script and ReDoc's generated styles.
CSP = "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; worker-src 'self' blob:"


def add_offline_docs(app: FastAPI) -> None:
    """Serve /docs and /redoc for `app` (built with `docs_url=None, redoc_url=None`) from local
    assets under /docs-assets."""
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="docs-assets")
    openapi_url = app.openapi_url or "/openapi.json"

    def page(request: Request, render: Any, **assets: str) -> HTMLResponse:
        root = request.scope.get("root_path", "")
        urls = {key: f"{root}{ASSETS_URL}/{name}" for key, name in assets.items()}
        html = render(openapi_url=root + openapi_url, **urls)
        html.headers["Content-Security-Policy"] = CSP
        return html

    @app.get("/docs", include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        return page(
            request, partial(get_swagger_ui_html, title=f"{app.title} - Swagger UI",
                             swagger_ui_parameters=app.swagger_ui_parameters),
            swagger_js_url="swagger-ui-bundle.js", swagger_css_url="swagger-ui.css", swagger_favicon_url="favicon.png",
        )

    @app.get("/redoc", include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        return page(
            request, partial(get_redoc_html, title=f"{app.title} - ReDoc", with_google_fonts=False),
            redoc_js_url="redoc.standalone.js", redoc_favicon_url="favicon.png",
        )


def only_declared_errors(app: FastAPI) -> None:
    """Make `app`'s OpenAPI document list, for each operation, only the errors it declares:
    FastAPI adds its own 422 (HTTPValidationError) to every operation with parameters, even
    where validation cannot fail and whose body is not the API's error shape anyway."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            doc = generate()
            for operations in doc.get("paths", {}).values():
                for operation in operations.values():
                    responses = operation.get("responses", {})
                    for status, response in list(responses.items()):
                        if "HTTPValidationError" in str(response.get("content", "")):
                            del responses[status]
            for name in ("HTTPValidationError", "ValidationError"):
                doc.get("components", {}).get("schemas", {}).pop(name, None)
            app.openapi_schema = doc
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
