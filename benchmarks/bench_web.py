"""Speed of the table app on loopback: round entry and live-update fan-out.

Starts ``trickmate serve`` (cheroot) on a free loopback port with a temporary data folder,
then prints

* requests per second for saving rounds (POST .../rounds, each one an fsync'ed SQLite
  transaction), from one phone and from several at once;
* the time from a round being sent until every phone watching that table has received
  the new table on its event stream, with WATCHERS phones spread over TABLES tables
  (median and 95th percentile), plus the server's memory.

Usage: ``nice .venv/bin/python benchmarks/bench_web.py [--watchers 200] [--tables 50]``.
Bounded: a fixed number of requests, and it gives up after ``--timeout`` seconds.
"""

from __future__ import annotations

import argparse
import http.client
import json
import selectors
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Client:
    """One keep-alive HTTP connection, as one phone would hold."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connect()

    def connect(self) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        self.connection.connect()
        # http.client sends headers and body in two writes; without NODELAY, Nagle plus the
        # server's delayed ACK would add 40 ms to every POST (browsers send both at once).
        assert self.connection.sock is not None
        self.connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        try:
            self.connection.request(method, path, body=data, headers=headers)
        except (BrokenPipeError, ConnectionResetError):
            # the server closed this idle keep-alive connection (nothing was sent): reconnect
            self.connect()
            self.connection.request(method, path, body=data, headers=headers)
        response = self.connection.getresponse()
        return response.status, json.loads(response.read() or b"null")


def start_server(port: int, data: Path) -> subprocess.Popen[bytes]:
    log = (data / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
         "--data", str(data), "--quiet"],
        stdout=subprocess.DEVNULL, stderr=log,
    )
    deadline = time.monotonic() + 30
    while "serving at" not in (data / "server.log").read_text():
        if process.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not start: " + (data / "server.log").read_text())
        time.sleep(0.05)
    return process


def new_table(client: Client) -> dict[str, Any]:
    status, body = client.call("POST", "/api/tables", {"players": PLAYERS, "target": 100_000})
    assert status == 201, body
    return dict(body)


def round_number(n: int) -> dict[str, Any]:
    return {"out": [0, 1], "points": {"0": 5 * (n % 21)}}


def bench_round_entry(port: int, count: int, phones: int, per_game: int = 20) -> float:
    """Rounds saved per second with ``phones`` clients posting at once, each on its own tables.

    A table gets ``per_game`` rounds (a real game has 10 to 20) before the phone moves on to
    the next one: scoring re-reads the whole game, so one endless table would measure that.
    """
    per_phone = count // phones
    setup = Client(port)
    games = [[new_table(setup) for _ in range(-(-per_phone // per_game))] for _ in range(phones)]

    def phone(tables: list[dict[str, Any]]) -> None:
        client = Client(port)
        for n in range(per_phone):
            table = tables[n // per_game]
            status, body = client.call("POST", f"/api/tables/{table['id']}/rounds", round_number(n),
                                       table["scorer_token"])
            assert status == 201, body

    threads = [threading.Thread(target=phone, args=(tables,)) for tables in games]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return per_phone * phones / (time.perf_counter() - started)


class Watchers:
    """Many event-stream connections read by one thread with a selector (like many phones)."""

    def __init__(self, port: int, table_ids: list[str], per_table: int) -> None:
        self.selector = selectors.DefaultSelector()
        self.received: dict[tuple[str, int], list[float]] = {}  # (table, rounds) -> arrival times
        self.lock = threading.Lock()
        self.sockets: list[socket.socket] = []
        self.running = True
        for table_id in table_ids:
            for _ in range(per_table):
                sock = socket.create_connection(("127.0.0.1", port), timeout=10)
                request = f"GET /api/tables/{table_id}/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
                sock.sendall(request.encode())
                sock.setblocking(False)
                self.selector.register(sock, selectors.EVENT_READ, {"table": table_id, "buffer": b""})
                self.sockets.append(sock)
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def run(self) -> None:
        while self.running:
            for key, _ in self.selector.select(timeout=0.2):
                state = key.data
                try:
                    chunk = key.fileobj.recv(65536)  # type: ignore[union-attr]
                except BlockingIOError:
                    continue
                now = time.perf_counter()
                if not chunk:
                    self.selector.unregister(key.fileobj)
                    continue
                state["buffer"] += chunk
                # Each event arrives as one HTTP chunk holding a whole "data: {...}\n\n" line.
                while (start := state["buffer"].find(b"data: ")) >= 0:
                    end = state["buffer"].find(b"\n\n", start)
                    if end < 0:
                        break
                    table = json.loads(state["buffer"][start + 6 : end])
                    state["buffer"] = state["buffer"][end + 2 :]
                    with self.lock:
                        self.received.setdefault((state["table"], len(table["rounds"])), []).append(now)

    def count(self, table_id: str, rounds: int) -> int:
        with self.lock:
            return len(self.received.get((table_id, rounds), []))

    def close(self) -> None:
        self.running = False
        self.thread.join(2)
        for sock in self.sockets:
            sock.close()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_fan_out(port: int, watchers: int, tables: int, rounds: int, timeout: float) -> dict[str, float]:
    client = Client(port)
    made = [new_table(client) for _ in range(tables)]
    per_table = watchers // tables
    crowd = Watchers(port, [t["id"] for t in made], per_table)
    deadline = time.monotonic() + timeout
    try:
        while any(crowd.count(t["id"], 0) < per_table for t in made):
            if time.monotonic() > deadline:
                raise SystemExit("not every watcher connected in time")
            time.sleep(0.05)
        every: list[float] = []  # per round: until the last watcher of its table had it
        each: list[float] = []  # per round and watcher
        for n in range(1, rounds + 1):
            for table in made:
                sent = time.perf_counter()
                status, _ = client.call("POST", f"/api/tables/{table['id']}/rounds", round_number(n),
                                        table["scorer_token"])
                assert status == 201
                while crowd.count(table["id"], n) < per_table:
                    if time.monotonic() > deadline:
                        raise SystemExit("a watcher missed a round")
                    time.sleep(0.001)
                with crowd.lock:
                    arrivals = [t - sent for t in crowd.received[(table["id"], n)]]
                each.extend(arrivals)
                every.append(max(arrivals))
        return {
            "rounds": len(every),
            "every_median_ms": 1000 * statistics.median(every),
            "every_p95_ms": 1000 * percentile(every, 0.95),
            "each_median_ms": 1000 * statistics.median(each),
            "each_p95_ms": 1000 * percentile(each, 0.95),
        }
    finally:
        crowd.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--posts", type=int, default=400, help="rounds saved for the requests/second figure")
    parser.add_argument("--rounds", type=int, default=4, help="rounds per table during the fan-out test")
    parser.add_argument("--timeout", type=float, default=120)
    args = parser.parse_args()
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="trickmate-bench-") as folder:
        server = start_server(port, Path(folder))
        try:
            one = bench_round_entry(port, args.posts, 1)
            four = bench_round_entry(port, args.posts, 4)
            print(f"round entry: {one:.0f} rounds/s from one phone, {four:.0f} rounds/s from 4 phones "
                  f"at once ({args.posts} POSTs each, 20 per table, fsync'ed SQLite)")
            result = bench_fan_out(port, args.watchers, args.tables, args.rounds, args.timeout)
            print(f"live updates: {args.watchers} watchers on {args.tables} tables, "
                  f"{result['rounds']:.0f} rounds saved")
            print(f"  round sent -> every watcher of its table has it: "
                  f"median {result['every_median_ms']:.1f} ms, p95 {result['every_p95_ms']:.1f} ms")
            print(f"  round sent -> one watcher has it: "
                  f"median {result['each_median_ms']:.1f} ms, p95 {result['each_p95_ms']:.1f} ms")
            print(f"  server memory with {args.watchers} open streams: {rss_mb(server.pid):.0f} MB RSS")
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
