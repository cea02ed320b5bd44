"""The server-rendered pages: start a table, the table (scorer or viewer), the referee.

The pages hold no state of their own: everything lives on the server and reaches the
page through the JSON API, so a reload or a lost connection never loses anything.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, send_from_directory

from web.api import DEFAULT_RULES, table_rules
from web.app import get_store

bp = Blueprint("pages", __name__)

#: The pages in the navigation bar, in order: (endpoint, label). Pages added later append here.
NAV: list[tuple[str, str]] = [("pages.start", "New table"), ("pages.referee", "Referee")]


@bp.app_context_processor
def navigation() -> dict[str, Any]:
    return {"nav": NAV}


@bp.get("/")
def start() -> str:
    return render_template("start.html", targets=(500, 1000, 2000), default_rules=DEFAULT_RULES)


@bp.get("/t/<table_id>")
def table(table_id: str) -> str:
    store = get_store(current_app)
    if not store.exists(table_id):
        abort(404)
    stored = store.get_table(table_id)
    return render_template(
        "table.html",
        table_id=table_id, players=stored.players, target=stored.target, rules=table_rules(stored),
    )


@bp.get("/referee")
def referee() -> str:
    return render_template("referee.html")


@bp.get("/manifest.webmanifest")
def manifest() -> Response:
    response = send_from_directory(current_app.static_folder or "static", "manifest.webmanifest")
    response.mimetype = "application/manifest+json"
    return response
