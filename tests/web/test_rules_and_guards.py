"""House rules, the stale-edit guard (If-Match), a viewer's powerlessness, security headers on
every kind of response, and old databases, through Flask's test client."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import PLAYERS
from tests.web.test_api import read_event, sse_lines
from web.app import create_app

STALE = {"error": "the table changed on another phone: reload and try again"}


def auth(table: dict[str, Any], **headers: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['scorer_token']}", **headers}


def rounds_path(table: dict[str, Any], n: int | None = None) -> str:
    base = f"/api/tables/{table['id']}/rounds"
    return base if n is None else f"{base}/{n}"


def state(client: FlaskClient, table: dict[str, Any]) -> dict[str, Any]:
    body: dict[str, Any] = client.get(f"/api/tables/{table['id']}").get_json()
    return body


def with_rounds(client: FlaskClient, table: dict[str, Any], *points: int) -> dict[str, Any]:
    for value in points:
        response = client.post(
            rounds_path(table), json={"out": [0, 1], "points": {"0": value}}, headers=auth(table)
        )
        assert response.status_code == 201
    return state(client, table)


def table_count(app: Flask) -> int:
    with sqlite3.connect(Path(app.config["DATA"]) / "trickmate.sqlite3") as conn:
        return int(conn.execute("SELECT count(*) FROM tables").fetchone()[0])


# -- house rules ---------------------------------------------------------------------------------


def test_double_victory_house_rule_scores_rounds_and_ends_the_game(client: FlaskClient) -> None:
    body = {"players": PLAYERS, "target": 500, "rules": {"double_victory": 300}}
    table = client.post("/api/tables", json=body).get_json()
    assert state(client, table)["rules"] == {"double_victory": 300, "count_from_cards": False}
    first = client.post(
        rounds_path(table), json={"calls": {"1": "tichu"}, "out": [1, 3]}, headers=auth(table)
    )
    assert first.get_json()["rounds"][0]["score"] == {"0": 0, "1": 400}
    # a correction is scored by the same rule
    edited = client.put(rounds_path(table, 0), json={"out": [0, 2]}, headers=auth(table)).get_json()
    assert edited["totals"] == {"0": 300, "1": 0} and edited["finished"] is False
    done = client.post(rounds_path(table), json={"out": [2, 0]}, headers=auth(table)).get_json()
    assert done["totals"] == {"0": 600, "1": 0} and done["finished"] is True and done["winner"] == "0"
    # the game is over by this table's rule: no more rounds
    assert client.post(rounds_path(table), json={"out": [1, 3]}, headers=auth(table)).status_code == 409


def test_rules_default_and_round_trip_for_a_rematch(client: FlaskClient) -> None:
    no_rules: tuple[dict[str, Any] | None, ...] = ({}, None)
    for rules in no_rules:
        made = client.post("/api/tables", json={"players": PLAYERS, "rules": rules}).get_json()
        assert state(client, made)["rules"] == {"double_victory": 200, "count_from_cards": False}
    table = client.post(
        "/api/tables", json={"players": PLAYERS, "rules": {"double_victory": 250.0, "count_from_cards": True}}
    ).get_json()
    old = state(client, table)
    assert old["rules"] == {"double_victory": 250, "count_from_cards": True}
    # what a rematch sends: the finished table's game, players, target and rules as GET gave them
    rematch_body = {key: old[key] for key in ("game", "players", "target", "rules")}
    rematch = client.post("/api/tables", json=rematch_body)
    assert rematch.status_code == 201
    assert state(client, rematch.get_json())["rules"] == old["rules"]


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"bonus": 5}, "unknown house rule 'bonus'"),
        ({"double_victory": 200, "Double_Victory": 300}, "unknown house rule 'Double_Victory'"),
        ({"double_victory": 0}, "double_victory must be a positive multiple of 5"),
        ({"double_victory": -200}, "positive multiple of 5"),
        ({"double_victory": 33}, "got 33"),
        ({"double_victory": "300"}, "positive multiple of 5"),
        ({"double_victory": True}, "positive multiple of 5"),
        ({"double_victory": 300.5}, "positive multiple of 5"),
        ({"double_victory": 10_005}, "up to 10000"),
        ({"double_victory": None}, "positive multiple of 5"),
        ({"count_from_cards": "yes"}, "count_from_cards must be true or false"),
        ([200], "rules must be an object"),
        ("double_victory=300", "rules must be an object"),
    ],
)
def test_bad_rules_are_refused_and_no_table_is_made(
    app: Flask, client: FlaskClient, rules: Any, message: str
) -> None:
    before = table_count(app)
    response = client.post("/api/tables", json={"players": PLAYERS, "rules": rules})
    assert response.status_code == 400
    assert message in response.get_json()["error"]
    assert table_count(app) == before


def test_preview_uses_the_double_victory_it_is_given(client: FlaskClient) -> None:
    round_obj = {"out": [0, 2]}
    assert client.post("/api/preview", json=round_obj).get_json() == {"score": {"0": 200, "1": 0}}
    assert client.post("/api/preview?double_victory=350", json=round_obj).get_json() == {
        "score": {"0": 350, "1": 0}
    }
    for bad in ("0", "7", "x", "-5"):
        response = client.post(f"/api/preview?double_victory={bad}", json=round_obj)
        assert response.status_code == 400 and "double_victory" in response.get_json()["error"]


def test_pages_show_the_house_rules(client: FlaskClient) -> None:
    start = client.get("/").get_data(as_text=True)
    assert "House rules" in start and 'id="double-victory"' in start and 'id="count-from-cards"' in start
    table = client.post(
        "/api/tables", json={"players": PLAYERS, "rules": {"double_victory": 350, "count_from_cards": True}}
    ).get_json()
    page = client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert "double victory scores 350" in page and "counted from the cards" in page
    plain = client.post("/api/tables", json={"players": PLAYERS}).get_json()
    page = client.get(f"/t/{plain['id']}").get_data(as_text=True)
    assert "double victory scores 200" in page and "counted from the cards" not in page


# -- old databases ----------------------------------------------------------------------------------

# The schema of the first release, before tables had house rules.
FIRST_SCHEMA = """
CREATE TABLE tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, players TEXT NOT NULL, target INTEGER NOT NULL,
    token_hash TEXT NOT NULL, created REAL NOT NULL, version INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE rounds (
    seq INTEGER PRIMARY KEY AUTOINCREMENT, table_id TEXT NOT NULL REFERENCES tables(id), round TEXT NOT NULL
);
CREATE INDEX rounds_by_table ON rounds(table_id, seq);
"""


def test_a_database_from_the_first_release_opens_and_keeps_working(tmp_path: Path) -> None:
    data = tmp_path / "old"
    data.mkdir()
    token = "old-scorer-token-" + "x" * 20
    with sqlite3.connect(data / "trickmate.sqlite3") as conn:
        conn.executescript(FIRST_SCHEMA)
        conn.execute(
            "INSERT INTO tables VALUES (?,?,?,?,?,?,?)",
            (
                "oldtable123456",
                "tichu",
                json.dumps(PLAYERS),
                1000,
                hashlib.sha256(token.encode()).hexdigest(),
                0.0,
                1,
            ),
        )
        conn.execute(
            "INSERT INTO rounds (table_id, round) VALUES (?, ?)", ("oldtable123456", '{"out": [0, 2]}')
        )
    conn.close()
    for _ in range(2):  # the migration runs once and is harmless the second time
        client = create_app({"TESTING": True, "DATA": str(data)}).test_client()
        body = client.get("/api/tables/oldtable123456").get_json()
        assert body["rules"] == {"double_victory": 200, "count_from_cards": False}
        assert body["rounds"][0]["score"] == {"0": 200, "1": 0}
        assert client.get("/t/oldtable123456").status_code == 200
    headers = {"Authorization": f"Bearer {token}", "If-Match": f'"{body["version"]}"'}
    added = client.post("/api/tables/oldtable123456/rounds", json={"out": [1, 3]}, headers=headers)
    assert added.status_code == 201 and added.get_json()["totals"] == {"0": 200, "1": 200}
    made = client.post("/api/tables", json={"players": PLAYERS, "rules": {"double_victory": 300}}).get_json()
    assert client.get(f"/api/tables/{made['id']}").get_json()["rules"]["double_victory"] == 300
    with sqlite3.connect(data / "trickmate.sqlite3") as conn:
        columns = [row[1] for row in conn.execute("PRAGMA table_info(tables)")]
    conn.close()
    assert columns.count("rules") == 1


# -- the stale-edit guard ------------------------------------------------------------------------


def test_every_change_raises_the_version_and_etag(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.get(f"/api/tables/{table['id']}")
    assert response.get_json()["version"] == 0 and response.headers["ETag"] == '"0"'
    added = client.post(rounds_path(table), json={"out": [0, 2]}, headers=auth(table))
    assert added.get_json()["version"] == 1 and added.headers["ETag"] == '"1"'
    edited = client.put(rounds_path(table, 0), json={"out": [1, 3]}, headers=auth(table))
    assert edited.get_json()["version"] == 2
    deleted = client.delete(rounds_path(table, 0), headers=auth(table))
    assert deleted.get_json()["version"] == 3 and deleted.headers["ETag"] == '"3"'


def test_an_edit_from_a_phone_that_missed_a_delete_is_refused(
    client: FlaskClient, table: dict[str, Any]
) -> None:
    seen = with_rounds(client, table, 10, 20, 30)  # phone B's view: three rounds
    version = f'"{seen["version"]}"'
    # phone A deletes round 2 (position 1), which shifts round 3 to position 1
    assert (
        client.delete(rounds_path(table, 1), headers=auth(table, **{"If-Match": version})).status_code == 200
    )
    after_delete = state(client, table)
    # phone B edits what it still shows as round 3 (position 2): refused, nothing changes;
    # without the guard this would be a 404 here, or with a fourth round, the wrong round
    edit = client.put(
        rounds_path(table, 2),
        json={"out": [1, 0], "points": {"1": 50}},
        headers=auth(table, **{"If-Match": version}),
    )
    assert edit.status_code == 409 and edit.get_json() == STALE
    assert edit.headers["ETag"] == f'"{after_delete["version"]}"'
    for method in ("PUT", "DELETE"):
        response = client.open(
            rounds_path(table, 0),
            method=method,
            json={"out": [0, 2]},
            headers=auth(table, **{"If-Match": version}),
        )
        assert response.status_code == 409 and response.get_json() == STALE
    post = client.post(rounds_path(table), json={"out": [0, 2]}, headers=auth(table, **{"If-Match": version}))
    assert post.status_code == 409 and post.get_json() == STALE
    assert state(client, table) == after_delete
    # after reloading, phone B's edit goes through
    fresh = f'"{after_delete["version"]}"'
    edit = client.put(
        rounds_path(table, 1),
        json={"out": [1, 0], "points": {"1": 50}},
        headers=auth(table, **{"If-Match": fresh}),
    )
    assert edit.status_code == 200
    assert [r["score"]["0"] for r in edit.get_json()["rounds"]] == [10, 50]


@pytest.mark.parametrize(
    ("header", "query", "status"),
    [
        ('"{v}"', "", 200),
        ("{v}", "", 200),
        ('W/"{v}"', "", 200),
        ('"99", "{v}"', "", 200),
        ("*", "", 200),
        (None, "?version={v}", 200),
        ('"{v}"', "?version={v}", 200),
        ('"{old}"', "", 409),
        (None, "?version={old}", 409),
        ('"{v}"', "?version={old}", 409),  # both are checked
        ("*", "?version={old}", 409),
        ('"abc"', "", 400),
        ('"-1"', "", 400),
        ("", "", 400),
        (None, "?version=x", 400),
        (None, "?version=" + "9" * 40, 400),
    ],
)
def test_if_match_forms(
    client: FlaskClient, table: dict[str, Any], header: str | None, query: str, status: int
) -> None:
    seen = with_rounds(client, table, 10, 20)
    v, old = seen["version"], seen["version"] - 1
    headers = auth(table)
    if header is not None:
        headers["If-Match"] = header.format(v=v, old=old)
    response = client.delete(rounds_path(table, 0) + query.format(v=v, old=old), headers=headers)
    assert response.status_code == status, response.get_json()
    assert len(state(client, table)["rounds"]) == (1 if status == 200 else 2)
    if status == 400:
        assert "version" in response.get_json()["error"]


def test_credentials_are_checked_before_the_version(client: FlaskClient, table: dict[str, Any]) -> None:
    with_rounds(client, table, 10)
    response = client.delete(rounds_path(table, 0), headers={"If-Match": '"0"'})
    assert response.status_code == 401


def test_clients_without_the_guard_work_as_before(client: FlaskClient, table: dict[str, Any]) -> None:
    with_rounds(client, table, 10, 20, 30)
    assert client.delete(rounds_path(table, 0), headers=auth(table)).status_code == 200
    assert client.put(rounds_path(table, 1), json={"out": [0, 2]}, headers=auth(table)).status_code == 200
    assert client.post(rounds_path(table), json={"out": [0, 2]}, headers=auth(table)).status_code == 201


# -- a viewer can never change anything ---------------------------------------------------------------


def mutations(table: dict[str, Any]) -> list[tuple[str, str, Any]]:
    """Every request that would change the table (or show the scorer link)."""
    return [
        ("POST", rounds_path(table), {"out": [1, 3]}),
        ("PUT", rounds_path(table, 0), {"out": [1, 3]}),
        ("DELETE", rounds_path(table, 0), None),
        ("GET", f"/api/tables/{table['id']}/qr.svg?role=scorer", None),
    ]


def viewer_attempts(table: dict[str, Any], other: dict[str, Any]) -> list[tuple[dict[str, str], str]]:
    """What someone holding only the viewer link (and maybe another table's token) might try."""
    token = other["scorer_token"]
    return [
        ({}, ""),
        ({"If-Match": '"1"'}, ""),
        ({"Authorization": f"Bearer {table['id']}"}, ""),  # the id is not a credential
        ({"Authorization": f"Bearer {token}"}, ""),  # another table's scorer token
        ({"Authorization": f"Bearer {table['scorer_token'][:-1]}"}, ""),  # nearly right
        ({"Authorization": f"bearer  {table['scorer_token']}x"}, ""),
        ({"Authorization": f"Basic {table['scorer_token']}"}, ""),
        ({"Cookie": f"token={table['scorer_token']}"}, ""),
        ({}, f"token={token}"),
    ]


def with_query(path: str, query: str) -> str:
    return path if not query else path + ("&" if "?" in path else "?") + query


def test_a_viewer_can_change_nothing(client: FlaskClient, table: dict[str, Any]) -> None:
    other = client.post("/api/tables", json={"players": PLAYERS}).get_json()
    before = with_rounds(client, table, 40)
    for method, path, body in mutations(table):
        for headers, query in viewer_attempts(table, other):
            if method != "GET" and query == "":
                # a token in the query string never scores, only draws the scorer QR code
                extra = with_query(path, f"token={table['scorer_token']}")
                response = client.open(extra, method=method, json=body, headers=headers)
                assert response.status_code in (401, 403), (method, path, headers)
            response = client.open(with_query(path, query), method=method, json=body, headers=headers)
            assert response.status_code in (401, 403), (method, path, headers, query)
            assert response.is_json and "error" in response.get_json()
    # the table itself cannot be replaced, renamed or deleted by anyone
    for method in ("PUT", "PATCH", "DELETE", "POST"):
        response = client.open(
            f"/api/tables/{table['id']}", method=method, json={"players": PLAYERS}, headers=auth(table)
        )
        assert response.status_code == 405
    assert state(client, table) == before


def test_nothing_a_viewer_receives_carries_the_scorer_token(
    client: FlaskClient, table: dict[str, Any]
) -> None:
    with_rounds(client, table, 40)
    token = table["scorer_token"]
    for path in (f"/api/tables/{table['id']}", f"/t/{table['id']}", f"/api/tables/{table['id']}/qr.svg"):
        assert token not in client.get(path).get_data(as_text=True), path
    events = client.get(f"/api/tables/{table['id']}/events", buffered=False)
    assert token not in json.dumps(read_event(sse_lines(events)))
    events.close()


def test_no_endpoint_reveals_a_table_without_its_id(
    app: Flask, client: FlaskClient, table: dict[str, Any]
) -> None:
    with_rounds(client, table, 40)
    checked = 0
    for rule in app.url_map.iter_rules():
        if rule.arguments or "GET" not in (rule.methods or ()):
            continue
        response = client.get(rule.rule)
        text = response.get_data(as_text=True) if not response.is_streamed else ""
        assert table["id"] not in text and PLAYERS[0] not in text.replace("Ann &", ""), rule.rule
        checked += 1
    assert checked >= 4
    assert client.get("/api/tables").status_code == 405  # no list of tables


def test_the_scorer_qr_code_is_never_cached(client: FlaskClient, table: dict[str, Any]) -> None:
    scorer = client.get(f"/api/tables/{table['id']}/qr.svg?role=scorer&token={table['scorer_token']}")
    assert scorer.status_code == 200 and scorer.headers["Cache-Control"] == "no-store"
    viewer = client.get(f"/api/tables/{table['id']}/qr.svg")
    assert "max-age" in viewer.headers["Cache-Control"]


# -- live events after every kind of change ---------------------------------------------------------


def test_events_follow_posts_edits_and_deletes(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.get(f"/api/tables/{table['id']}/events", buffered=False)
    lines = sse_lines(response)
    assert read_event(lines)["version"] == 0
    client.post(rounds_path(table), json={"out": [0, 2]}, headers=auth(table))
    assert read_event(lines)["totals"] == {"0": 200, "1": 0}
    client.put(rounds_path(table, 0), json={"out": [1, 3]}, headers=auth(table))
    edited = read_event(lines)
    assert edited["totals"] == {"0": 0, "1": 200} and edited == state(client, table)
    client.delete(rounds_path(table, 0), headers=auth(table))
    deleted = read_event(lines)
    assert deleted["rounds"] == [] and deleted["version"] == 3 and deleted == state(client, table)
    response.close()


# -- security headers on every kind of response ---------------------------------------------------------


def assert_secure(response: Any, what: str) -> None:
    headers = response.headers
    assert "default-src 'self'" in headers.get("Content-Security-Policy", ""), what
    assert "frame-ancestors 'none'" in headers["Content-Security-Policy"], what
    assert headers.get("X-Content-Type-Options") == "nosniff", what
    assert headers.get("Referrer-Policy") == "no-referrer", what
    assert headers.get("X-Frame-Options") == "DENY", what


def test_security_headers_on_every_kind_of_response(
    app: Flask, client: FlaskClient, table: dict[str, Any]
) -> None:
    with_rounds(client, table, 40)
    tid = table["id"]
    big = b'{"pad": "' + b"x" * (300 * 1024) + b'"}'
    requests: list[tuple[str, str, dict[str, Any]]] = [
        ("GET", "/", {}),
        ("GET", f"/t/{tid}", {}),
        ("GET", "/t/nosuchtable", {}),  # 404 page
        ("GET", "/static/app.css", {}),
        ("GET", "/manifest.webmanifest", {}),
        ("GET", f"/api/tables/{tid}", {}),
        ("GET", f"/api/tables/{tid}/qr.svg", {}),
        ("GET", "/api/tables/nosuchtable", {}),  # 404 JSON
        ("PATCH", f"/api/tables/{tid}", {}),  # 405
        ("POST", "/api/tables", {"data": b"{", "content_type": "application/json"}),  # 400
        ("POST", "/api/tables", {"data": big, "content_type": "application/json"}),  # 413
        ("POST", rounds_path(table), {"json": {"out": [0, 2]}}),  # 401
        (
            "POST",
            rounds_path(table),
            {"json": {"out": [0, 2]}, "headers": {"Authorization": "Bearer x"}},
        ),  # 403
        ("DELETE", rounds_path(table, 0), {"headers": auth(table, **{"If-Match": '"0"'})}),  # 409
    ]
    statuses = set()
    for method, path, kwargs in requests:
        response = client.open(path, method=method, **kwargs)
        statuses.add(response.status_code)
        assert_secure(response, f"{method} {path} -> {response.status_code}")
        if path.startswith("/api/"):
            assert response.headers["Cache-Control"] == "no-store" or "qr.svg" in path
    assert {200, 400, 401, 403, 404, 405, 409, 413} <= statuses
    events = client.get(f"/api/tables/{tid}/events", buffered=False)
    assert_secure(events, "event stream")
    assert events.headers["Cache-Control"] == "no-store"
    events.close()

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("internals")

    app.extensions["trickmate.store"].get_table = broken
    for path in (f"/api/tables/{tid}", f"/t/{tid}"):
        failed = client.get(path)
        assert failed.status_code == 500 and "internals" not in failed.get_data(as_text=True)
        assert_secure(failed, f"500 on {path}")
