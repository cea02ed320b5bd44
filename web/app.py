"""The Flask application factory (the structure of Flask's tutorial).

Configuration, lowest priority first: the defaults below, ``TRICKMATE_*`` environment
variables (``TRICKMATE_DATA`` moves the data folder), then the mapping given to
:func:`create_app` (tests and ``trickmate serve --data``).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, render_template, request
from werkzeug.exceptions import HTTPException

from web.store import Notifier, Store

log = logging.getLogger(__name__)

MAX_BODY = 256 * 1024

# Everything comes from this server: no CDN, no external fonts, no inline script.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; manifest-src 'self'; font-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)


def default_data_dir() -> Path:
    """The per-user data folder: $XDG_DATA_HOME/trickmate or ~/.local/share/trickmate."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "trickmate"


def create_app(config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__)
    app.config.from_mapping(
        DATA=None,
        MAX_CONTENT_LENGTH=MAX_BODY,
        # The public address phones should use when the scorer opened the app on the laptop
        # itself (localhost links are useless to the others); set by `trickmate serve`.
        PUBLIC_URL=None,
        # Seconds between keep-alive comments on event streams; also bounds how long a
        # thread serves a client that left silently.
        SSE_KEEPALIVE=15.0,
        SSE_RETRY_MS=2000,
        # A stream ends after this many seconds and the browser reconnects at once: a phone
        # that vanished without closing its connection holds a server thread no longer.
        SSE_MAX_SECONDS=600.0,
    )
    app.config.from_prefixed_env("TRICKMATE", loads=str)
    if config:
        app.config.update(config)
    data_dir = Path(app.config["DATA"]).expanduser() if app.config["DATA"] else default_data_dir()
    app.config["DATA"] = str(data_dir)
    app.extensions["trickmate.store"] = Store(data_dir / "trickmate.sqlite3")
    app.extensions["trickmate.notifier"] = Notifier()

    from web import api, pages, scanning

    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(scanning.bp)

    @app.after_request
    def security_headers(response: Response) -> Response:
        response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        if request.path.startswith("/api/"):
            response.headers.setdefault("Cache-Control", "no-store")
        return response

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        code = error.code or 500
        if request.path.startswith("/api/"):
            messages = {
                404: "not found",
                405: "method not allowed",
                413: f"request body too large (limit {MAX_BODY // 1024} KiB)",
            }
            message = messages.get(code, error.name.lower())
            return jsonify(error=message), code
        return render_template("error.html", code=code, message=error.name), code

    @app.errorhandler(Exception)
    def internal_error(error: Exception) -> Any:
        # Log the details for the operator; the client only learns that it failed.
        log.exception("unhandled error on %s %s", request.method, request.path)
        if request.path.startswith("/api/"):
            return jsonify(error="internal error"), 500
        return render_template("error.html", code=500, message="Something went wrong"), 500

    return app


def get_store(app: Flask) -> Store:
    store: Store = app.extensions["trickmate.store"]
    return store


def get_notifier(app: Flask) -> Notifier:
    notifier: Notifier = app.extensions["trickmate.notifier"]
    return notifier
