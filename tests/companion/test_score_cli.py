"""`trickmate score`, run as the installed command (CONTRACTS section 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TRICKMATE = Path(sys.executable).with_name("trickmate")

CONTRACT_DOCUMENT: dict[str, Any] = {
    "game": "tichu",
    "target": 1000,
    "rounds": [
        {"calls": {"0": "grand", "3": "tichu"}, "out": [0, 1, 3, 2], "points": {"0": 60}},
        {"calls": {"1": "tichu"}, "out": [1, 3]},
    ],
}
CONTRACT_RESULT = {
    "rounds": [{"0": 260, "1": -60}, {"0": 0, "1": 300}],
    "totals": {"0": 260, "1": 240},
    "finished": False,
    "winner": None,
}


def trickmate_score(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(TRICKMATE), "score", *args], input=stdin, capture_output=True, timeout=60, check=False
    )


def assert_refused(process: subprocess.CompletedProcess[bytes], message: str) -> None:
    """Exit 2, exactly one {"error": ...} document on stdout, a human message on stderr."""
    assert process.returncode == 2, process.stderr
    output = json.loads(process.stdout)
    assert list(output) == ["error"]
    assert message in output["error"]
    assert process.stdout.count(b"\n") == 1
    assert message in process.stderr.decode()
    assert process.stderr.decode().startswith("trickmate score: ")


def test_the_command_is_installed() -> None:
    assert TRICKMATE.exists(), "run scripts/test.sh (pip install -e .) first"


def test_scores_a_document_from_stdin() -> None:
    process = trickmate_score(stdin=json.dumps(CONTRACT_DOCUMENT).encode())
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout) == CONTRACT_RESULT
    assert process.stderr == b""


def test_scores_a_document_from_a_file(tmp_path: Path) -> None:
    document = {"target": 500, "rounds": [{"out": [0, 2]}, {"out": [2, 0], "calls": {"2": "grand"}}]}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    process = trickmate_score(str(path))
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout) == {
        "rounds": [{"0": 200, "1": 0}, {"0": 400, "1": 0}],
        "totals": {"0": 600, "1": 0},
        "finished": True,
        "winner": "0",
    }


def test_dash_means_stdin() -> None:
    process = trickmate_score("-", stdin=b'{"rounds": []}')
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout)["totals"] == {"0": 0, "1": 0}


@pytest.mark.parametrize(
    ("stdin", "message"),
    [
        (
            b'{"rounds": [{"out": [0, 1], "points": {"0": 33}}]}',
            "round 1: points must be a multiple of 5, got 33",
        ),
        (b'{"rounds": [', "invalid JSON at line 1 column 13"),
        (b"", "the input is empty"),
        (b"[]", "the input must be one JSON object"),
        (b'{"rounds": []} {"rounds": []}', "invalid JSON at line 1 column 16: Extra data"),
        (b'{"rounds": [{"out": [0, 1], "points": {"0": NaN}}]}', "NaN is not valid JSON"),
        (
            b'{"rounds": [{"out": [0, 1], "points": {"0": 50}, "calls": {"0": "tichu", "0": "grand"}}]}',
            "key '0' is written twice",
        ),
        (b'{"game": "chess", "rounds": []}', "unknown game 'chess'"),
        (b'{"game": ["tichu"], "rounds": []}', 'game must be a name like "tichu"'),
        (b'{"rounds": [], "extra": 1}', "unknown key 'extra'"),
        (b"\xff\xfe{}", "the input is not UTF-8 text"),
        (b'{"rounds": [{"out": [0, 1], "points": {"0": ' + b"9" * 5000 + b"}}]}", "a number is too long"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_bad_input_is_refused(stdin: bytes, message: str) -> None:
    assert_refused(trickmate_score(stdin=stdin), message)


def test_an_unreadable_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    assert_refused(trickmate_score(str(missing)), f"cannot read {missing}: No such file or directory")
    assert_refused(trickmate_score(str(tmp_path)), f"cannot read {tmp_path}")


def test_a_bad_round_in_a_file_computes_nothing(tmp_path: Path) -> None:
    rounds = [{"out": [0, 2]}, {"out": [0, 1, 2], "tricks": {"0": "5j 5j"}, "hand": "Kh"}]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"rounds": rounds}), encoding="utf-8")
    process = trickmate_score(str(path))
    assert_refused(process, "round 2: cannot read card 'Kh' in hand")
    assert b"totals" not in process.stdout


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(CONTRACT_DOCUMENT).encode())
    process = trickmate_score(str(path))
    assert process.returncode == 0, process.stderr
    assert json.loads(process.stdout) == CONTRACT_RESULT
