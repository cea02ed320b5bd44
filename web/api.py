"""The JSON API of CONTRACTS section 5, plus the preview and referee endpoints the pages use.

Two extensions, both optional, so a client written to the contract alone works unchanged:

- House rules: ``POST /api/tables`` takes ``"rules": {"double_victory": 300,
  "count_from_cards": true}`` (every key optional; unknown keys are refused). The table
  JSON carries them back as ``rules``, with every default filled in.
- Stale edits: the table JSON carries ``version`` (raised by every change; also the
  ``ETag``). A change may send ``If-Match: "<version>"`` (or ``?version=N``); if the
  table has changed since, the answer is 409 and nothing changes, so an edit of
  "round 3" made on a phone that has not yet seen another phone's delete never lands
  on the wrong round.
"""

from __future__ import annotations

import io
import ipaddress
import json
import math
import re
import time
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn
from urllib.parse import urlsplit

from flask import Blueprint, Response, current_app, jsonify, request, stream_with_context, url_for
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from companion.errors import TrickmateError
from web.app import get_notifier, get_store
from web.store import NotFound, Stale, StoredTable

bp = Blueprint("api", __name__, url_prefix="/api")

GAMES = {"tichu": 4}  # game -> number of players
MAX_NAME = 40
MAX_TARGET = 100_000
CREATE_KEYS = {"game", "players", "target", "rules"}
#: House rules a table may set when it starts, with their defaults.
DEFAULT_RULES: dict[str, Any] = {"double_victory": 200, "count_from_cards": False}
MAX_DOUBLE_VICTORY = 10_000
STALE_MESSAGE = "the table changed on another phone: reload and try again"
_VERSION = re.compile(r'(?:W/)?"?([0-9]{1,18})"?')


class ApiError(HTTPException):
    """An error answered as ``{"error": message}`` with its status code."""

    def __init__(self, code: int, message: str, headers: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra_headers = dict(headers or {})


@bp.errorhandler(ApiError)
def api_error(error: ApiError) -> Any:
    response = jsonify(error=error.message)
    response.status_code = error.code or 400
    if error.code == 401:
        response.headers["WWW-Authenticate"] = 'Bearer realm="trickmate"'
    response.headers.update(error.extra_headers)
    return response


def fail(code: int, message: str) -> NoReturn:
    raise ApiError(code, message)


# -- helpers --------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed in JSON")


def json_body() -> Any:
    """The request body as JSON, or 400 (413 comes from MAX_CONTENT_LENGTH)."""
    data = request.get_data(cache=True)
    limit = request.max_content_length
    # A chunked body has no length to check up front, and Werkzeug stops reading it at the
    # limit without complaint: anything left beyond the limit means it is too large.
    chunked = request.content_length is None
    if limit is not None and chunked and len(data) >= limit and request.environ["wsgi.input"].read(1):
        raise RequestEntityTooLarge()
    try:
        return json.loads(data, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as error:
        fail(400, f"the body is not JSON: {error}" if isinstance(error, json.JSONDecodeError) else
             "the body is not JSON")


def base_url() -> str:
    """Where phones reach this server: the request's host, unless that is the laptop itself."""
    host = request.host_url.rstrip("/")
    public = current_app.config.get("PUBLIC_URL")
    if public:
        hostname = urlsplit(host).hostname or ""
        try:
            loopback = hostname == "localhost" or ipaddress.ip_address(hostname).is_loopback
        except ValueError:
            loopback = False
        if loopback:
            return str(public).rstrip("/")
    return host


def viewer_url(table_id: str) -> str:
    return base_url() + url_for("pages.table", table_id=table_id)


def scorer_url(table_id: str, token: str) -> str:
    # The token rides in the fragment: browsers never send it to the server or in a Referer.
    return viewer_url(table_id) + "#token=" + token


def load_table(table_id: str) -> StoredTable:
    try:
        return get_store(current_app).get_table(table_id)
    except NotFound:
        fail(404, f"no table {table_id!r}")


def bearer_token() -> str | None:
    header = request.headers.get("Authorization", "")
    scheme, _, value = header.partition(" ")
    if scheme.lower() == "bearer" and value.strip():
        return value.strip()
    return None


def require_scorer(table_id: str, token: str | None) -> None:
    """404 for an unknown table, 401 without a credential, 403 with a wrong one."""
    store = get_store(current_app)
    if not store.exists(table_id):
        fail(404, f"no table {table_id!r}")
    if token is None:
        fail(401, "this needs the scorer link (Authorization: Bearer <token>)")
    if not store.check_token(table_id, token):
        fail(403, "this scorer token does not belong to this table")


def table_rules(table: StoredTable) -> dict[str, Any]:
    """The table's house rules with every default filled in (older tables stored none)."""
    return {**DEFAULT_RULES, **{k: v for k, v in table.rules.items() if k in DEFAULT_RULES}}


def score_rounds(table: StoredTable) -> dict[str, Any]:
    from companion.tichu.scoring import score_game

    return score_game(table.rounds, table.target, double_victory=table_rules(table)["double_victory"])


def table_json(table: StoredTable) -> dict[str, Any]:
    """The table as CONTRACTS section 5 describes it, plus ``rules`` and ``version``."""
    scored = score_rounds(table)
    return {
        "id": table.id,
        "game": table.game,
        "players": table.players,
        "target": table.target,
        "rounds": [{"round": r, "score": s} for r, s in zip(table.rounds, scored["rounds"], strict=True)],
        "totals": scored["totals"],
        "finished": scored["finished"],
        "winner": scored["winner"],
        "rules": table_rules(table),
        "version": table.version,
    }


def table_response(table: StoredTable, status: int = 200) -> Response:
    response = jsonify(table_json(table))
    response.status_code = status
    response.headers["ETag"] = f'"{table.version}"'
    return response


def expected_versions() -> frozenset[int] | None:
    """The versions a change was based on (``If-Match`` and/or ``?version=``), or None.

    ``If-Match: *`` or no header means "whatever is current". When both are given the
    table must match both.
    """
    expected: frozenset[int] | None = None
    header = request.headers.get("If-Match")
    if header is not None and header.strip() != "*":
        versions: set[int] = set()
        for tag in header.split(","):
            match = _VERSION.fullmatch(tag.strip())
            if match is None:
                fail(400, f'If-Match must name a table version like "5", got {header[:40]!r}')
            versions.add(int(match.group(1)))
        expected = frozenset(versions)
    query = request.args.get("version")
    if query is not None:
        if not re.fullmatch(r"[0-9]{1,18}", query):
            fail(400, f"version must be a table version (a whole number), got {query[:40]!r}")
        expected = frozenset({int(query)}) if expected is None else expected & {int(query)}
    return expected


def validate_round(body: Any, number: int, double_victory: int = 200) -> dict[str, int]:
    """The round's score, or 400 with the rule it breaks."""
    from companion.tichu.scoring import score_round

    if not isinstance(body, dict):
        fail(400, f"round {number}: a round must be a JSON object")
    try:
        return score_round(body, double_victory=double_victory, number=number)
    except TrickmateError as error:
        fail(400, str(error))
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        # A shape the scorer did not anticipate: still the client's mistake, never a 500.
        fail(400, f"round {number}: cannot read this round")


def changed(table_id: str, version: int, status: int = 200) -> Response:
    get_notifier(current_app).changed(table_id, version)
    return table_response(load_table(table_id), status)


# -- tables ---------------------------------------------------------------------------------


def whole_number(value: Any) -> Any:
    """``1000.0`` as ``1000``; anything else unchanged (and checked by the caller)."""
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return value


def parse_rules(value: Any) -> dict[str, Any]:
    """House rules from the new table's body, with every default filled in; 400 if bad."""
    if value is None:
        return dict(DEFAULT_RULES)
    if not isinstance(value, dict):
        fail(400, 'rules must be an object like {"double_victory": 200}')
    unknown = sorted(set(value) - set(DEFAULT_RULES))
    if unknown:
        fail(400, f"unknown house rule {unknown[0]!r} (known: {', '.join(sorted(DEFAULT_RULES))})")
    rules = dict(DEFAULT_RULES)
    double_victory = whole_number(value.get("double_victory", rules["double_victory"]))
    if (
        isinstance(double_victory, bool)
        or not isinstance(double_victory, int)
        or not 0 < double_victory <= MAX_DOUBLE_VICTORY
        or double_victory % 5
    ):
        fail(400, f"double_victory must be a positive multiple of 5 up to {MAX_DOUBLE_VICTORY},"
                  f" got {double_victory!r}")
    rules["double_victory"] = double_victory
    from_cards = value.get("count_from_cards", False)
    if from_cards is not None and not isinstance(from_cards, bool):
        fail(400, f"count_from_cards must be true or false, got {from_cards!r}")
    rules["count_from_cards"] = bool(from_cards)
    return rules


def parse_new_table(body: Any) -> tuple[str, list[str], int, dict[str, Any]]:
    if not isinstance(body, dict):
        fail(400, "the body must be a JSON object with game, players and target")
    unknown = sorted(set(body) - CREATE_KEYS)
    if unknown:
        fail(400, f"unknown key {unknown[0]!r} (allowed: game, players, target, rules)")
    game = body.get("game", "tichu")
    if not isinstance(game, str) or game.lower() not in GAMES:
        fail(400, f"unknown game {game!r} (this server knows: {', '.join(GAMES)})")
    game = game.lower()
    seats = GAMES[game]
    players = body.get("players")
    if not isinstance(players, list) or len(players) != seats:
        fail(400, f"players must be a list of {seats} names, by seat")
    names: list[str] = []
    for seat, name in enumerate(players):
        if not isinstance(name, str) or not name.strip():
            fail(400, f"player {seat + 1} needs a name")
        name = " ".join(name.split())
        if len(name) > MAX_NAME:
            fail(400, f"player {seat + 1}'s name is longer than {MAX_NAME} characters: {name[:MAX_NAME]!r}…")
        names.append(name)
    target = whole_number(body.get("target", 1000))
    if isinstance(target, bool) or not isinstance(target, int) or not 0 < target <= MAX_TARGET:
        fail(400, f"target must be a whole number from 1 to {MAX_TARGET}, got {target!r}")
    return game, names, target, parse_rules(body.get("rules"))


@bp.post("/tables")
def create_table() -> Any:
    game, players, target, rules = parse_new_table(json_body())
    table_id, token = get_store(current_app).create_table(game, players, target, rules)
    body = {
        "id": table_id,
        "scorer_url": scorer_url(table_id, token),
        "viewer_url": viewer_url(table_id),
        "scorer_token": token,
    }
    response = jsonify(body)
    response.status_code = 201
    response.headers["Location"] = body["viewer_url"]
    return response


@bp.get("/tables/<table_id>")
def get_table(table_id: str) -> Any:
    return table_response(load_table(table_id))


@bp.post("/tables/<table_id>/rounds")
def add_round(table_id: str) -> Any:
    require_scorer(table_id, bearer_token())
    expected = expected_versions()
    body = json_body()
    store = get_store(current_app)
    table = load_table(table_id)
    validate_round(body, len(table.rounds) + 1, table_rules(table)["double_victory"])

    def not_finished(current: StoredTable) -> None:
        # Checked again inside the write lock: another phone may have just ended the game.
        if current.rounds and score_rounds(current)["finished"]:
            fail(409, "the game is over: start a rematch for a new game (corrections are still allowed)")

    try:
        version = store.add_round(table_id, body, not_finished, expected)
    except NotFound:
        fail(404, f"no table {table_id!r}")
    except Stale as stale:
        stale_table(stale)
    return changed(table_id, version, 201)


def stale_table(stale: Stale) -> NoReturn:
    """409: the change was based on a version of the table that another phone replaced."""
    raise ApiError(409, STALE_MESSAGE, {"ETag": f'"{stale.current}"'})


def _position(position: str) -> int:
    if not position.isdigit():
        fail(404, f"no round {position!r}")
    return int(position)


@bp.put("/tables/<table_id>/rounds/<position>")
def replace_round(table_id: str, position: str) -> Any:
    require_scorer(table_id, bearer_token())
    n = _position(position)
    expected = expected_versions()
    body = json_body()
    validate_round(body, n + 1, table_rules(load_table(table_id))["double_victory"])
    try:
        version = get_store(current_app).replace_round(table_id, n, body, expected)
    except NotFound:
        fail(404, f"no round {n} at this table")
    except Stale as stale:
        stale_table(stale)
    return changed(table_id, version)


@bp.delete("/tables/<table_id>/rounds/<position>")
def delete_round(table_id: str, position: str) -> Any:
    require_scorer(table_id, bearer_token())
    n = _position(position)
    expected = expected_versions()
    try:
        version = get_store(current_app).delete_round(table_id, n, expected)
    except NotFound:
        fail(404, f"no round {n} at this table")
    except Stale as stale:
        stale_table(stale)
    return changed(table_id, version)


@bp.get("/tables/<table_id>/events")
def events(table_id: str) -> Any:
    store = get_store(current_app)
    load_table(table_id)  # 404 before the stream starts
    notifier = get_notifier(current_app)
    keepalive = float(current_app.config["SSE_KEEPALIVE"])
    retry = int(current_app.config["SSE_RETRY_MS"])
    ends = time.monotonic() + float(current_app.config["SSE_MAX_SECONDS"])

    def stream() -> Iterator[str]:
        yield f"retry: {retry}\n\n"
        sent = -1
        while time.monotonic() < ends:
            table = store.get_table(table_id)
            if table.version != sent:
                sent = table.version
                data = json.dumps(table_json(table), separators=(",", ":"))
                yield f"id: {sent}\nevent: table\ndata: {data}\n\n"
            # Another process may share the file, so the store's version is the truth; the
            # notifier only wakes us early. A keep-alive write also finds clients that left.
            wait = max(0.0, min(keepalive, ends - time.monotonic()))
            if not notifier.wait(table_id, sent, wait) and store.version(table_id) == sent:
                yield ": keep-alive\n\n"
            if notifier.closed:
                return

    response = Response(stream_with_context(stream()), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Accel-Buffering"] = "no"
    return response


@bp.get("/tables/<table_id>/qr.svg")
def qr_svg(table_id: str) -> Any:
    load_table(table_id)
    if request.args.get("role") == "scorer":
        token = bearer_token() or request.args.get("token") or None
        require_scorer(table_id, token)
        assert token is not None
        url = scorer_url(table_id, token)
        cache = "no-store"  # it carries the scorer token: keep it out of every cache
    else:
        url = viewer_url(table_id)
        cache = "private, max-age=3600"
    response = Response(qr_code_svg(url), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = cache
    return response


def qr_code_svg(data: str) -> bytes:
    import qrcode
    import qrcode.image.svg

    code = qrcode.QRCode(border=2, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    image = code.make_image(image_factory=qrcode.image.svg.SvgPathFillImage)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


# -- helpers for the pages --------------------------------------------------------------------


@bp.post("/preview")
def preview() -> Any:
    """The score of one round, without saving anything (the form's preview).

    ``?n=`` is the round's number for messages, ``?double_victory=`` the table's house rule.
    """
    body = json_body()
    number = request.args.get("n", "1")
    double_victory = request.args.get("double_victory", str(DEFAULT_RULES["double_victory"]))
    if not re.fullmatch(r"[0-9]{1,9}", double_victory):
        fail(400, f"double_victory must be a positive multiple of 5, got {double_victory[:40]!r}")
    n = int(number) if re.fullmatch(r"[0-9]{1,9}", number) else 1
    return jsonify(score=validate_round(body, n, int(double_victory)))


@bp.post("/referee")
def referee() -> Any:
    """One situation of CONTRACTS section 2 in, its verdict out."""
    from companion.tichu.referee import judge_situation

    body = json_body()
    if not isinstance(body, Mapping):
        fail(400, "a situation must be a JSON object")
    try:
        return jsonify(judge_situation(body))
    except TrickmateError as error:
        fail(400, str(error))
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        fail(400, "cannot read this situation")
