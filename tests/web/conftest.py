"""Fixtures for the table app: the Flask test client (as in Flask's tutorial) and a real server."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from web.app import create_app

PLAYERS = ["Ann", "Bob", "Cy", "Di"]

# Debian's Chromium, driven by PyPI's playwright (never `playwright install`). The flags keep
# it from reaching for the network, which this machine does not have.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync",
]


@pytest.fixture(scope="module")
def playwright_session() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as running:
        yield running


@pytest.fixture(scope="module")
def browser(playwright_session: Any) -> Iterator[object]:
    """Headless Chromium, shared by the tests of one module."""
    chromium = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    """Where screenshots go: ``TRICKMATE_SCREENSHOTS`` (e.g. docs/screenshots) or a temporary folder."""
    folder = Path(os.environ.get("TRICKMATE_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"TESTING": True, "DATA": str(tmp_path / "data"), "SSE_KEEPALIVE": 0.2})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def table(client: FlaskClient) -> dict[str, Any]:
    """A new Tichu table: the creation answer (id, urls, scorer_token)."""
    response = client.post("/api/tables", json={"game": "tichu", "players": PLAYERS, "target": 1000})
    assert response.status_code == 201
    body: dict[str, Any] = response.get_json()
    return body


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Server:
    """``trickmate serve`` running as a subprocess on loopback."""

    data: Path
    port: int = field(default_factory=free_port)
    extra: list[str] = field(default_factory=list)
    process: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    env: dict[str, str] = field(default_factory=dict)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20) -> Server:
        command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--data", str(self.data), "--quiet", *self.extra]
        self.data.mkdir(parents=True, exist_ok=True)
        self.log = self.data.parent / f"server-{self.port}.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=log, env={**os.environ, **self.env}
            )
        deadline = time.monotonic() + timeout
        # The banner is printed once every worker thread runs and the socket listens.
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            if "serving at" in self.log.read_text():
                return self
            time.sleep(0.05)
        raise RuntimeError("server did not start")

    def kill(self, sig: int = signal.SIGTERM) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(5)
        self.process = None

    def request(
        self, method: str, path: str, body: Any = None, token: str | None = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        try:
            connection.connect()
            # headers and body go out in two writes: without NODELAY, Nagle and delayed ACKs
            # would add 40 ms to every request
            assert connection.sock is not None
            connection.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            connection.request(method, path, body=data, headers=headers)
            response = connection.getresponse()
            payload = response.read()
            return response.status, json.loads(payload) if payload else None
        finally:
            connection.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path / "served").start()
    try:
        yield running
    finally:
        running.kill()
