"""``trickmate serve`` as a real server on loopback: HTTP, live events, kill -9, concurrent scorers."""

from __future__ import annotations

import http.client
import ipaddress
import json
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import PLAYERS, Server, free_port
from web.serve import lan_address

pytestmark = pytest.mark.server


class EventStream:
    """A raw-socket reader of one table's event stream (chunked transfer, as browsers get it)."""

    def __init__(self, port: int, table_id: str) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.sendall(
            f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Accept: text/event-stream\r\n\r\n".encode()
        )
        self.file = self.sock.makefile("rb")
        status = self.file.readline()
        assert b" 200 " in status, status
        self.headers = {}
        while (line := self.file.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode().partition(":")
            self.headers[key.strip().lower()] = value.strip()
        self.comments: list[bytes] = []
        self.retry: int | None = None
        self._pending = b""

    def _line(self) -> bytes:
        # Lines of the event stream, taken out of the HTTP chunks.
        while True:
            if b"\n" in self._pending:
                line, self._pending = self._pending.split(b"\n", 1)
                return line
            size = int(self.file.readline().strip(), 16)
            chunk = self.file.read(size + 2)[:size]
            self._pending = getattr(self, "_pending", b"") + chunk

    def next_table(self) -> dict[str, Any]:
        data: list[bytes] = []
        while True:
            line = self._line()
            if line.startswith(b"retry: "):
                self.retry = int(line[7:])
            elif line.startswith(b":"):
                self.comments.append(line)
            elif line.startswith(b"data: "):
                data.append(line[6:])
            elif line == b"" and data:
                return dict(json.loads(b"".join(data)))

    def close(self) -> None:
        self.file.close()
        self.sock.close()


def new_table(server: Server, target: int = 1000) -> dict[str, Any]:
    body = {"game": "tichu", "players": PLAYERS, "target": target}
    status, body = server.request("POST", "/api/tables", body)
    assert status == 201
    return dict(body)


def test_real_http_round_trip(server: Server) -> None:
    table = new_table(server)
    assert table["viewer_url"] == f"{server.base}/t/{table['id']}"
    round_obj = {"calls": {"1": "tichu"}, "out": [1, 0], "points": {"1": 50}}
    path = f"/api/tables/{table['id']}/rounds"
    status, body = server.request("POST", path, round_obj, table["scorer_token"])
    assert status == 201 and body["totals"] == {"0": 50, "1": 150}
    assert server.request("POST", f"/api/tables/{table['id']}/rounds", round_obj)[0] == 401
    assert server.request("GET", "/api/tables/unknown-table")[0] == 404
    status, body = server.request(
        "POST", f"/api/tables/{table['id']}/rounds", token=table["scorer_token"], raw=b"x" * (300 * 1024)
    )
    assert status == 413 and "error" in body
    status, body = server.request("POST", path, token=table["scorer_token"], raw=b"{")
    assert status == 400 and "not JSON" in body["error"]


def test_watchers_receive_every_change(server: Server) -> None:
    table = new_table(server)
    watchers = [EventStream(server.port, table["id"]) for _ in range(3)]
    try:
        assert watchers[0].headers["content-type"].startswith("text/event-stream")
        for watcher in watchers:
            assert watcher.next_table()["rounds"] == []
            assert watcher.retry is not None
        path = f"/api/tables/{table['id']}/rounds"
        server.request("POST", path, {"out": [0, 2]}, table["scorer_token"])
        for watcher in watchers:
            assert watcher.next_table()["totals"] == {"0": 200, "1": 0}
        server.request("DELETE", f"{path}/0", token=table["scorer_token"])
        for watcher in watchers:
            assert watcher.next_table()["rounds"] == []
    finally:
        for watcher in watchers:
            watcher.close()


def test_streams_end_when_clients_leave(tmp_path: Path) -> None:
    # Four threads only: if streams of departed clients kept their threads, the server would stall.
    server = Server(tmp_path / "d", extra=["--threads", "4"], env={"TRICKMATE_SSE_KEEPALIVE": "0.2"}).start()
    try:
        table = new_table(server)
        for _ in range(3):
            watchers = [EventStream(server.port, table["id"]) for _ in range(3)]
            for watcher in watchers:
                watcher.next_table()
                watcher.close()
            time.sleep(0.8)  # a keep-alive write finds each departed client
        watcher = EventStream(server.port, table["id"])
        watcher.next_table()
        watcher._line()  # keep-alive comments keep coming
        assert server.request("GET", f"/api/tables/{table['id']}")[0] == 200
        watcher.close()
    finally:
        server.kill()


def test_nothing_saved_is_lost_when_the_server_is_killed(tmp_path: Path) -> None:
    server = Server(tmp_path / "data").start()
    tables = []
    try:
        for points in (10, 20):
            table = new_table(server)
            tables.append(table)
            for n in range(5):
                round_obj = {"out": [0, 1], "points": {"0": points + 5 * n}}
                path = f"/api/tables/{table['id']}/rounds"
                status, _ = server.request("POST", path, round_obj, table["scorer_token"])
                assert status == 201
    finally:
        server.kill(signal.SIGKILL)  # no chance to flush anything
    server = Server(tmp_path / "data").start()
    try:
        for points, table in zip((10, 20), tables, strict=True):
            status, body = server.request("GET", f"/api/tables/{table['id']}")
            assert status == 200
            assert [r["round"]["points"]["0"] for r in body["rounds"]] == [points + 5 * n for n in range(5)]
            # the token survived the restart too
            path = f"/api/tables/{table['id']}/rounds/4"
            status, _ = server.request("DELETE", path, token=table["scorer_token"])
            assert status == 200
    finally:
        server.kill()


def test_concurrent_scorers_never_lose_or_duplicate_a_round(server: Server) -> None:
    table = new_table(server, target=100_000)
    path = f"/api/tables/{table['id']}/rounds"
    outs = [[0, 1], [0, 3], [2, 1], [2, 3], [1, 0], [1, 2], [3, 0], [3, 2]]
    # 8 threads (two phones' worth of rapid taps) x 10 distinct rounds each.
    rounds = [{"out": outs[t], "points": {"0": 5 * n}} for t in range(8) for n in range(10)]
    statuses: list[int] = []
    lock = threading.Lock()

    def phone(mine: list[dict[str, Any]]) -> None:
        for round_obj in mine:
            status, _ = server.request("POST", path, round_obj, table["scorer_token"])
            with lock:
                statuses.append(status)

    threads = [threading.Thread(target=phone, args=(rounds[t * 10 : t * 10 + 10],)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert statuses == [201] * 80
    _, body = server.request("GET", f"/api/tables/{table['id']}")
    stored = sorted(json.dumps(r["round"], sort_keys=True) for r in body["rounds"])
    assert stored == sorted(json.dumps(r, sort_keys=True) for r in rounds)


def test_https_with_a_self_signed_certificate_made_once(tmp_path: Path) -> None:
    data = tmp_path / "tls"
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    certificates = []
    for _ in range(2):
        server = Server(data, extra=["--https"]).start()
        try:
            with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw, context.wrap_socket(
                raw, server_hostname="127.0.0.1"
            ) as tls:
                tls.sendall(b"GET /api/tables/none HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                answer = b""
                while chunk := tls.recv(4096):
                    answer += chunk
            assert answer.startswith(b"HTTP/1.1 404") and b'"error"' in answer
            certificates.append((data / "https-cert.pem").read_bytes())
        finally:
            server.kill()
    assert certificates[0] == certificates[1]  # reused, so phones need to accept it only once


def test_serve_prints_the_address_and_a_qr_code(tmp_path: Path) -> None:
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(tmp_path)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert process.stderr is not None
        lines = [process.stderr.readline() for _ in range(4)]
        assert f"http://127.0.0.1:{port}" in lines[0]
        assert str(tmp_path) in "".join(lines)
        qr_line = process.stderr.readline()
        assert set(qr_line.strip()) <= set("█▀▄ \xa0") and len(qr_line.strip()) > 20
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def test_port_in_use_is_a_clear_error(tmp_path: Path, server: Server) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(server.port),
         "--data", str(tmp_path), "--quiet"],
        capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 1 and "cannot listen" in result.stderr and "Traceback" not in result.stderr


def test_lan_address_is_an_ipv4_address() -> None:
    assert ipaddress.ip_address(lan_address()).version == 4


def guarded(server: Server, method: str, path: str, token: str, version: int, body: Any = None) -> int:
    """One change sent with ``If-Match: "<version>"``, as the pages send it; returns the status."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=15)
    headers = {
        "Authorization": f"Bearer {token}", "If-Match": f'"{version}"', "Content-Type": "application/json"
    }
    try:
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        response = connection.getresponse()
        payload = json.loads(response.read())
        if response.status == 409:
            assert payload == {"error": "the table changed on another phone: reload and try again"}
        return response.status
    finally:
        connection.close()


def test_two_phones_changing_the_same_version_at_once_one_wins(server: Server) -> None:
    table = new_table(server, target=100_000)
    token, path = table["scorer_token"], f"/api/tables/{table['id']}"
    for points in (10, 20, 30):
        server.request("POST", f"{path}/rounds", {"out": [0, 1], "points": {"0": points}}, token)
    for attempt in range(6):
        _, before = server.request("GET", path)
        version, count = before["version"], len(before["rounds"])
        edit = {"out": [1, 0], "points": {"1": 5 * attempt}}
        # phone A deletes the first round while phone B edits the last, both from the same view
        changes = [("DELETE", f"{path}/rounds/0", None), ("PUT", f"{path}/rounds/{count - 1}", edit)]
        if attempt % 3 == 1:
            changes[0] = ("PUT", f"{path}/rounds/{count - 1}", {"out": [0, 2]})  # or both edit it
        elif attempt % 3 == 2:  # or both enter the same round: it must not be there twice
            changes = [("POST", f"{path}/rounds", edit), ("POST", f"{path}/rounds", edit)]
        start = threading.Barrier(2)
        statuses: dict[int, int] = {}

        def phone(n: int, change: tuple[str, str, Any], start: threading.Barrier, version: int,
                  statuses: dict[int, int]) -> None:
            start.wait(5)
            method, target, body = change
            statuses[n] = guarded(server, method, target, token, version, body)

        threads = [
            threading.Thread(target=phone, args=(n, changes[n], start, version, statuses)) for n in range(2)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(30)
        success = 201 if changes[0][0] == "POST" else 200
        assert sorted(statuses.values()) == [success, 409], statuses
        _, after = server.request("GET", path)
        assert after["version"] == version + 1
        winner = changes[0] if statuses[0] == success else changes[1]
        rounds = [r["round"] for r in before["rounds"]]
        if winner[0] == "DELETE":
            rounds = rounds[1:]
        elif winner[0] == "POST":
            rounds.append(winner[2])
        else:
            rounds[-1] = winner[2]
        assert [r["round"] for r in after["rounds"]] == rounds  # exactly the winner's change
        server.request("POST", f"{path}/rounds", {"out": [0, 1], "points": {"0": 50}}, token)


def test_limits_and_headers_on_the_real_server(server: Server) -> None:
    table = new_table(server)
    # A chunked body (no Content-Length) over 256 KiB is refused as well.
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        )
        chunk = b"x" * 65536
        try:
            for _ in range(5):
                sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sock.sendall(b"0\r\n\r\n")
        except OSError:
            pass  # the server may answer and close before reading it all
        answer = b""
        while data := sock.recv(65536):
            answer += data
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"content-security-policy" in answer.lower()
    # Headers beyond 64 KiB are refused before the app sees them.
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", f"/api/tables/{table['id']}", headers={"X-Pad": "y" * 70_000})
        assert connection.getresponse().status in (400, 413, 431)
    finally:
        connection.close()
    # Security headers on the live stream and on errors, as a browser receives them.
    watcher = EventStream(server.port, table["id"])
    try:
        for name in ("content-security-policy", "x-content-type-options", "referrer-policy",
                     "x-frame-options"):
            assert name in watcher.headers, name
        assert watcher.headers["cache-control"] == "no-store"
    finally:
        watcher.close()
    for path in ("/api/tables/nosuchtable", "/t/nosuchtable"):
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            response.read()
            assert response.status == 404 and response.getheader("X-Content-Type-Options") == "nosniff"
            assert "frame-ancestors 'none'" in (response.getheader("Content-Security-Policy") or "")
        finally:
            connection.close()
