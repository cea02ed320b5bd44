"""The JSON API of CONTRACTS section 5 through Flask's test client: every good and bad input."""

from __future__ import annotations

import json
import pathlib
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.web.conftest import PLAYERS
from web.app import default_data_dir
from web.store import Store, StoredTable

ROUND = {"calls": {"0": "grand", "3": "tichu"}, "out": [0, 1, 3, 2], "points": {"0": 60}}


def auth(table: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {table['scorer_token']}"}


def rounds_path(table: dict[str, Any], n: int | None = None) -> str:
    base = f"/api/tables/{table['id']}/rounds"
    return base if n is None else f"{base}/{n}"


# -- creating tables ---------------------------------------------------------------------------


def test_create_answers_absolute_urls_and_long_secrets(client: FlaskClient, table: dict[str, Any]) -> None:
    assert set(table) == {"id", "scorer_url", "viewer_url", "scorer_token"}
    assert table["viewer_url"] == f"http://localhost/t/{table['id']}"
    assert table["scorer_url"].startswith(table["viewer_url"])
    assert table["scorer_token"] in table["scorer_url"]
    assert table["scorer_token"] not in table["viewer_url"]
    # token_urlsafe: 6 random bits per character
    assert len(table["id"]) * 6 >= 64 and len(table["scorer_token"]) * 6 >= 128
    other = client.post("/api/tables", json={"players": PLAYERS}).get_json()
    assert other["id"] != table["id"] and other["scorer_token"] != table["scorer_token"]


def test_new_table_state(client: FlaskClient, table: dict[str, Any]) -> None:
    body = client.get(f"/api/tables/{table['id']}").get_json()
    assert body == {
        "id": table["id"], "game": "tichu", "players": PLAYERS, "target": 1000, "rounds": [],
        "totals": {"0": 0, "1": 0}, "finished": False, "winner": None,
        # extensions: the house rules with their defaults, and the change counter
        "rules": {"double_victory": 200, "count_from_cards": False}, "version": 0,
    }


def test_create_defaults_and_strips_names(client: FlaskClient) -> None:
    response = client.post("/api/tables", json={"game": "tichu", "players": ["  Ann ", "Bob", "Cy", "Di"]})
    body = client.get(f"/api/tables/{response.get_json()['id']}").get_json()
    assert body["target"] == 1000 and body["players"][0] == "Ann"


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"players": ["A", "B", "C"]}, "4 names"),
        ({"players": ["A", "B", "C", "D", "E"]}, "4 names"),
        ({"players": ["A", "", "C", "D"]}, "player 2 needs a name"),
        ({"players": ["A", "B", "   ", "D"]}, "player 3 needs a name"),
        ({"players": ["A", "B", "C", 4]}, "player 4 needs a name"),
        ({"players": ["A", "B", "C", "x" * 41]}, "longer than 40"),
        ({"players": "ABCD"}, "4 names"),
        ({}, "4 names"),
        ({"players": PLAYERS, "target": 0}, "target"),
        ({"players": PLAYERS, "target": -500}, "target"),
        ({"players": PLAYERS, "target": "1000"}, "target"),
        ({"players": PLAYERS, "target": 10.5}, "target"),
        ({"players": PLAYERS, "target": True}, "target"),
        ({"players": PLAYERS, "game": "chess"}, "unknown game"),
        ({"players": PLAYERS, "colour": "red"}, "unknown key 'colour'"),
        ([], "JSON object"),
    ],
)
def test_create_rejects(client: FlaskClient, body: Any, message: str) -> None:
    response = client.post("/api/tables", json=body)
    assert response.status_code == 400
    assert message in response.get_json()["error"]


def test_forty_character_names_are_fine(client: FlaskClient) -> None:
    assert client.post("/api/tables", json={"players": ["x" * 40, "B", "C", "D"]}).status_code == 201


@pytest.mark.parametrize("data", [b"{", b"", b"nope", b'{"players": NaN}', b"\xff\xfe"])
def test_create_rejects_bodies_that_are_not_json(client: FlaskClient, data: bytes) -> None:
    response = client.post("/api/tables", data=data, content_type="application/json")
    assert response.status_code == 400
    assert "not JSON" in response.get_json()["error"]


# -- rounds ------------------------------------------------------------------------------------


def test_round_is_scored_and_stored(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.post(rounds_path(table), json=ROUND, headers=auth(table))
    assert response.status_code == 201
    body = response.get_json()
    # Grand by seat 0 made (+200), Tichu by seat 3 failed (-100); cards 60/40.
    assert body["rounds"] == [{"round": ROUND, "score": {"0": 260, "1": -60}}]
    assert body["totals"] == {"0": 260, "1": -60}
    assert client.get(f"/api/tables/{table['id']}").get_json() == body


def test_double_victory_and_totals(client: FlaskClient, table: dict[str, Any]) -> None:
    client.post(rounds_path(table), json={"calls": {"1": "tichu"}, "out": [1, 3]}, headers=auth(table))
    second = {"out": [2, 1], "points": {"1": 30}}
    body = client.post(rounds_path(table), json=second, headers=auth(table)).get_json()
    assert [r["score"] for r in body["rounds"]] == [{"0": 0, "1": 300}, {"0": 70, "1": 30}]
    assert body["totals"] == {"0": 70, "1": 330}


@pytest.mark.parametrize(
    "bad_round",
    [
        {"out": [0, 1], "points": {"0": 33}},  # not a multiple of 5
        {"out": [0, 1], "points": {"0": 130}},  # outside -25..125
        {"out": [0, 1], "points": {"0": 60, "1": 50}},  # does not add up to 100
        {"out": [0, 1]},  # no card points
        {"out": [0]},  # too few out
        {"out": [0, 0], "points": {"0": 50}},  # the same seat twice
        {"out": [0, 4], "points": {"0": 50}},  # no seat 4
        {"out": [0, 2], "points": {"0": 50}},  # points on a double victory
        {"calls": {"0": "huge"}, "out": [0, 1], "points": {"0": 50}},
        {"out": [0, 1], "points": {"0": 50}, "bonus": 5},  # unknown key
        {"out": [0, 1, 2, 3], "tricks": {"0": "Xq"}, "hand": ""},  # bad card notation
        {"out": "0 1", "points": {"0": 50}},
        [1, 2, 3],
        "round",
        None,
    ],
)
def test_bad_rounds_are_refused_and_nothing_is_stored(
    client: FlaskClient, table: dict[str, Any], bad_round: Any
) -> None:
    response = client.post(rounds_path(table), json=bad_round, headers=auth(table))
    assert response.status_code == 400, response.get_json()
    error = response.get_json()["error"]
    assert isinstance(error, str) and error and "Traceback" not in error
    assert client.get(f"/api/tables/{table['id']}").get_json()["rounds"] == []


def test_round_from_cards(client: FlaskClient, table: dict[str, Any]) -> None:
    from companion.cards import format_cards, tichu_deck

    hand = "5p 10p Kp 5t 10t Kt"  # 50 points, the last player's: they go to team 0
    seat3 = "Phoenix"  # the last player's tricks go to the first out (seat 0)
    seat1 = "5s 10s Ks Dragon"  # 50 points for team 1
    taken = set((hand + " " + seat3 + " " + seat1).split())
    rest = format_cards(card for card in tichu_deck() if str(card) not in taken)  # 25 points
    tricks = {"0": rest, "1": seat1, "2": "", "3": seat3}
    round_obj: dict[str, object] = {"out": [0, 1, 2, 3], "tricks": tricks, "hand": hand}
    expected = client.post("/api/preview", json=round_obj).get_json()["score"]
    body = client.post(rounds_path(table), json=round_obj, headers=auth(table)).get_json()
    assert body["rounds"][0]["score"] == expected
    assert expected == {"0": 25 - 25 + 50, "1": 50}
    short = {**round_obj, "tricks": {**tricks, "0": ""}}
    response = client.post(rounds_path(table), json=short, headers=auth(table))
    assert response.status_code == 400 and "missing" in response.get_json()["error"]


def test_preview_scores_without_saving(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.post("/api/preview", json=ROUND)
    assert response.status_code == 200 and response.get_json() == {"score": {"0": 260, "1": -60}}
    bad = client.post("/api/preview", json={"out": [0, 1], "points": {"0": 7}})
    assert bad.status_code == 400 and "multiple of 5" in bad.get_json()["error"]
    assert client.get(f"/api/tables/{table['id']}").get_json()["rounds"] == []


# -- credentials -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "status"),
    [
        ({}, 401),
        ({"Authorization": "Bearer "}, 401),
        ({"Authorization": "Basic abc"}, 401),
        ({"Authorization": "Bearer wrong-token"}, 403),
    ],
)
def test_changes_need_the_scorer_token(
    client: FlaskClient, table: dict[str, Any], headers: dict[str, str], status: int
) -> None:
    client.post(rounds_path(table), json=ROUND, headers=auth(table))
    assert client.post(rounds_path(table), json=ROUND, headers=headers).status_code == status
    assert client.put(rounds_path(table, 0), json={"out": [1, 3]}, headers=headers).status_code == status
    assert client.delete(rounds_path(table, 0), headers=headers).status_code == status
    assert client.get(f"/api/tables/{table['id']}").get_json()["rounds"][0]["round"] == ROUND


def test_a_token_only_opens_its_own_table(client: FlaskClient, table: dict[str, Any]) -> None:
    other = client.post("/api/tables", json={"players": PLAYERS}).get_json()
    assert client.post(rounds_path(other), json=ROUND, headers=auth(table)).status_code == 403


def test_tokens_are_stored_hashed(app: Flask, table: dict[str, Any]) -> None:
    folder = pathlib.Path(app.config["DATA"])
    # the write-ahead log holds recent rows until a checkpoint moves them into the file
    raw = b"".join(path.read_bytes() for path in folder.glob("trickmate.sqlite3*"))
    assert table["scorer_token"].encode() not in raw and table["id"].encode() in raw


# -- corrections and the end of the game --------------------------------------------------------


def test_edit_and_delete_any_round_and_totals_follow(client: FlaskClient, table: dict[str, Any]) -> None:
    for points in (10, 20, 30):
        client.post(rounds_path(table), json={"out": [0, 1], "points": {"0": points}}, headers=auth(table))
    body = client.put(rounds_path(table, 1), json={"out": [1, 0], "points": {"1": 75}}, headers=auth(table))
    assert body.status_code == 200
    assert [r["score"]["0"] for r in body.get_json()["rounds"]] == [10, 25, 30]
    body = client.delete(rounds_path(table, 0), headers=auth(table))
    assert body.status_code == 200
    assert [r["score"]["0"] for r in body.get_json()["rounds"]] == [25, 30]
    assert body.get_json()["totals"] == {"0": 55, "1": 145}
    # positions shift after a delete
    assert client.delete(rounds_path(table, 2), headers=auth(table)).status_code == 404
    assert client.put(rounds_path(table, 2), json=ROUND, headers=auth(table)).status_code == 404
    assert client.delete(rounds_path(table, 1), headers=auth(table)).status_code == 200


def test_bad_edit_changes_nothing(client: FlaskClient, table: dict[str, Any]) -> None:
    client.post(rounds_path(table), json=ROUND, headers=auth(table))
    bad = {"out": [0, 1], "points": {"0": 3}}
    response = client.put(rounds_path(table, 0), json=bad, headers=auth(table))
    assert response.status_code == 400
    assert client.get(f"/api/tables/{table['id']}").get_json()["rounds"][0]["round"] == ROUND


@pytest.mark.parametrize("position", ["-1", "x", "1.0", "99999999999999999999"])
def test_odd_positions_are_not_found(client: FlaskClient, table: dict[str, Any], position: str) -> None:
    client.post(rounds_path(table), json=ROUND, headers=auth(table))
    response = client.delete(f"{rounds_path(table)}/{position}", headers=auth(table))
    assert response.status_code == 404 and "error" in response.get_json()


def test_finished_game_refuses_new_rounds_but_allows_corrections(client: FlaskClient) -> None:
    table = client.post("/api/tables", json={"players": PLAYERS, "target": 500}).get_json()
    for _ in range(3):  # double victories for team 0: 600
        client.post(rounds_path(table), json={"out": [0, 2]}, headers=auth(table))
    body = client.get(f"/api/tables/{table['id']}").get_json()
    assert body["finished"] is True and body["winner"] == "0"
    response = client.post(rounds_path(table), json=ROUND, headers=auth(table))
    assert response.status_code == 409 and "rematch" in response.get_json()["error"]
    assert len(client.get(f"/api/tables/{table['id']}").get_json()["rounds"]) == 3
    # correcting the last round re-opens the game
    body = client.put(rounds_path(table, 2), json={"out": [1, 3]}, headers=auth(table)).get_json()
    assert body["finished"] is False and body["totals"] == {"0": 400, "1": 200}
    assert client.post(rounds_path(table), json=ROUND, headers=auth(table)).status_code == 201


# -- unknown tables, sizes, errors --------------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("GET", "/api/tables/nosuchtable"),
        ("POST", "/api/tables/nosuchtable/rounds"),
        ("PUT", "/api/tables/nosuchtable/rounds/0"),
        ("DELETE", "/api/tables/nosuchtable/rounds/0"),
        ("GET", "/api/tables/nosuchtable/events"),
        ("GET", "/api/tables/nosuchtable/qr.svg"),
        ("GET", "/api/tables/nosuchtable/qr.svg?role=scorer&token=x"),
        ("GET", "/api/nothing-here"),
    ],
)
def test_unknown_table_is_404_json_everywhere(
    client: FlaskClient, table: dict[str, Any], method: str, path: str
) -> None:
    response = client.open(path, method=method, json=ROUND, headers=auth(table))
    assert response.status_code == 404
    assert response.is_json and "error" in response.get_json()


def test_unknown_table_page_is_404(client: FlaskClient) -> None:
    assert client.get("/t/nosuchtable").status_code == 404


def test_bodies_over_256_kib_are_refused(client: FlaskClient, table: dict[str, Any]) -> None:
    big = json.dumps({"out": [0, 1], "points": {"0": 50}, "pad": "x" * (256 * 1024)})
    response = client.post(rounds_path(table), data=big, content_type="application/json", headers=auth(table))
    assert response.status_code == 413 and "256 KiB" in response.get_json()["error"]
    response = client.post("/api/tables", data=big, content_type="application/json")
    assert response.status_code == 413


def test_wrong_method_is_json(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.patch(f"/api/tables/{table['id']}")
    assert response.status_code == 405 and response.get_json() == {"error": "method not allowed"}


def test_internal_errors_carry_no_details(app: Flask, client: FlaskClient, table: dict[str, Any]) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret internals at /home/x/store.py line 3")

    app.extensions["trickmate.store"].get_table = broken
    response = client.get(f"/api/tables/{table['id']}")
    assert response.status_code == 500
    assert response.get_json() == {"error": "internal error"}


def test_security_headers(client: FlaskClient, table: dict[str, Any]) -> None:
    for path in ("/", f"/api/tables/{table['id']}", "/referee"):
        headers = client.get(path).headers
        csp = headers["Content-Security-Policy"]
        assert "frame-ancestors 'none'" in csp and "default-src 'self'" in csp
        assert not re.search(r"https?://", csp)
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] == "no-referrer"


# -- QR codes and events -----------------------------------------------------------------------


def test_qr_codes(client: FlaskClient, table: dict[str, Any]) -> None:
    viewer = client.get(f"/api/tables/{table['id']}/qr.svg")
    assert viewer.status_code == 200 and viewer.mimetype == "image/svg+xml"
    assert viewer.data.lstrip().startswith(b"<?xml") and b"<svg" in viewer.data
    path = f"/api/tables/{table['id']}/qr.svg?role=scorer"
    assert client.get(path).status_code == 401
    assert client.get(path + "&token=wrong").status_code == 403
    by_query = client.get(path + f"&token={table['scorer_token']}")
    by_header = client.get(path, headers=auth(table))
    assert by_query.status_code == by_header.status_code == 200
    assert by_query.data == by_header.data != viewer.data


def test_qr_code_encodes_the_viewer_url() -> None:
    from web.api import qr_code_svg

    assert qr_code_svg("http://a/t/1") != qr_code_svg("http://a/t/2")


def read_event(lines: Any) -> dict[str, Any]:
    data = []
    for line in lines:
        if line.startswith(b"data: "):
            data.append(line[6:])
        elif line == b"" and data:
            return dict(json.loads(b"".join(data)))
    raise AssertionError("stream ended")


def sse_lines(response: Any) -> Any:
    buffer = b""
    for chunk in response.response:
        buffer += chunk if isinstance(chunk, bytes) else chunk.encode()
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            yield line


def test_events_send_the_table_then_every_change(client: FlaskClient, table: dict[str, Any]) -> None:
    response = client.get(f"/api/tables/{table['id']}/events", buffered=False)
    assert response.status_code == 200 and response.mimetype == "text/event-stream"
    lines = sse_lines(response)
    assert next(lines).startswith(b"retry: ")
    first = read_event(lines)
    assert first == client.get(f"/api/tables/{table['id']}").get_json()
    client.post(rounds_path(table), json=ROUND, headers=auth(table))
    second = read_event(lines)
    assert len(second["rounds"]) == 1 and second["totals"] == {"0": 260, "1": -60}
    # with nothing new, the stream keeps the connection alive with comments
    assert any(line.startswith(b": keep-alive") for line, _ in zip(lines, range(3), strict=False))
    response.close()


def test_event_streams_end_after_their_time_limit(
    app: Flask, client: FlaskClient, table: dict[str, Any]
) -> None:
    app.config["SSE_MAX_SECONDS"] = 0.5
    response = client.get(f"/api/tables/{table['id']}/events", buffered=False)
    lines = list(sse_lines(response))  # ends by itself; the browser reconnects after `retry`
    assert lines[0].startswith(b"retry: ") and sum(line.startswith(b"data: ") for line in lines) == 1


def test_links_name_the_lan_address_when_made_on_the_laptop(app: Flask, client: FlaskClient) -> None:
    app.config["PUBLIC_URL"] = "http://192.168.1.20:8000"
    made = client.post("/api/tables", json={"players": PLAYERS}).get_json()
    assert made["viewer_url"] == f"http://192.168.1.20:8000/t/{made['id']}"
    made = client.post("/api/tables", json={"players": PLAYERS}, base_url="http://10.0.0.7:8000").get_json()
    assert made["viewer_url"] == f"http://10.0.0.7:8000/t/{made['id']}"  # as the phone reached us


# -- the referee endpoint ------------------------------------------------------------------------


def test_referee_endpoint(client: FlaskClient) -> None:
    situation = {"game": "tichu", "play": "5j 5s 5p 9t 9j", "trick": ["4j 4s 4p Kt Kj"]}
    response = client.post("/api/referee", json=situation)
    assert response.status_code == 200
    verdict = response.get_json()
    assert verdict["legal"] is True
    assert verdict["combination"] == {"kind": "full_house", "rank": 5, "length": 5}
    bad = client.post("/api/referee", json={"play": "Xq"})
    assert bad.status_code == 400 and "Xq" in bad.get_json()["error"]
    assert client.post("/api/referee", json=[1]).status_code == 400


# -- pages and storage ---------------------------------------------------------------------------


def test_pages_are_served_without_external_hosts(client: FlaskClient, table: dict[str, Any]) -> None:
    for path in ("/", f"/t/{table['id']}", "/referee", "/manifest.webmanifest", "/static/app.css",
                 "/static/table.js", "/static/icon-192.png"):
        response = client.get(path)
        assert response.status_code == 200, path
        if (response.mimetype or "").startswith("text/html"):
            text = response.get_data(as_text=True)
            assert not re.search(r"(src|href)=\"https?://", text), path
            assert "<script>" not in text  # no inline scripts: the CSP forbids them
    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    assert manifest["display"] == "standalone" and manifest["icons"]


def test_table_page_shows_names_escaped(client: FlaskClient) -> None:
    table = client.post("/api/tables", json={"players": ["<b>x</b>", "Bob", "Cy", "Di"]}).get_json()
    text = client.get(f"/t/{table['id']}").get_data(as_text=True)
    assert "<b>x</b>" not in text and "&lt;b&gt;x&lt;/b&gt;" in text


def test_data_folder_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    from web.app import create_app

    monkeypatch.setenv("TRICKMATE_DATA", str(tmp_path / "env"))
    app = create_app()
    assert app.config["DATA"] == str(tmp_path / "env") and (tmp_path / "env" / "trickmate.sqlite3").exists()
    monkeypatch.delenv("TRICKMATE_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_data_dir() == tmp_path / "xdg" / "trickmate"


def test_store_refuses_changes_when_the_check_fails(tmp_path: Any) -> None:
    store = Store(tmp_path / "s.sqlite3")
    table_id, _ = store.create_table("tichu", PLAYERS, 1000)

    def refuse(table: StoredTable) -> None:
        raise ValueError("no")

    with pytest.raises(ValueError):
        store.add_round(table_id, {"out": [0, 2]}, refuse)
    assert store.get_table(table_id).rounds == [] and store.get_table(table_id).version == 0
