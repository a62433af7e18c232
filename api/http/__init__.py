"""HTTP face of the game service (FastAPI); see `api.http.app.create_app`."""

from api.http.app import create_app

__all__ = ["create_app"]
