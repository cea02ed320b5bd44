"""``trickmate referee`` as the installed command: JSON Lines in, one verdict line out each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

TRICKMATE = Path(sys.executable).parent / "trickmate"

CONTRACT_SITUATION = {
    "game": "tichu",
    "play": "5j 5s 5p 9t 9j",
    "trick": ["4j 4s 4p Kt Kj"],
    "hand": "5j 5s 5p 9t 9j 2s 3s Dragon",
    "wish": "7",
    "turn": True,
}


def referee(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(TRICKMATE), "referee", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def output_lines(result: subprocess.CompletedProcess[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_the_installed_command_exists() -> None:
    assert TRICKMATE.exists(), f"install the package first: {TRICKMATE}"


def test_one_verdict_per_line_in_order_from_stdin() -> None:
    lines = [
        json.dumps(CONTRACT_SITUATION),
        json.dumps({"play": "9j", "trick": ["Jt"]}),
        json.dumps({"play": "pass", "trick": ["Jt"]}),
    ]
    result = referee(stdin="\n".join(lines) + "\n")
    assert result.returncode == 0, result.stderr
    assert output_lines(result) == [
        {
            "legal": True,
            "combination": {"kind": "full_house", "rank": 5, "length": 5},
            "points": 15,
            "reason": None,
        },
        {
            "legal": False,
            "combination": {"kind": "single", "rank": 9, "length": 1},
            "points": 0,
            "reason": "a single 9 does not beat a single J",
        },
        {"legal": True, "combination": {"kind": "pass", "length": 0}, "points": 0, "reason": None},
    ]
    assert result.stderr == ""


def test_output_is_compact_json() -> None:
    result = referee(stdin=json.dumps({"play": "Kj"}) + "\n")
    assert result.stdout == (
        '{"legal":true,"combination":{"kind":"single","rank":13,"length":1},"points":10,"reason":null}\n'
    )


def test_error_lines_are_answered_in_place_and_exit_1() -> None:
    lines = [
        '{"play": "5j Zz"}',
        "not json",
        '{"play": "Kj"}',
        "[1, 2]",
        '{"play": "Kj", "game": "chess"}',
        '{"trick": ["5j"]}',
        '{"play": "5j 5j"}',
        '{"play": "5j", "wish": "1"}',
        '{"play": "5j", "play": "6j"}',
    ]
    result = referee(stdin="\n".join(lines))  # no final newline
    assert result.returncode == 1
    out = output_lines(result)
    assert len(out) == len(lines)
    assert out[0] == {"error": "cannot read card 'Zz' in the play"}
    assert out[1]["error"].startswith("invalid JSON")
    assert out[2]["legal"] is True
    assert out[3] == {"error": "a situation must be a JSON object, got a list"}
    assert out[4] == {"error": "unknown game 'chess'"}
    assert "missing" in out[5]["error"] and "play" in out[5]["error"]
    assert out[6] == {"error": "5j is written twice in the play"}
    assert out[7] == {"error": "the wish must be a rank 2..A, got '1'"}
    assert out[8] == {"error": "key 'play' is written twice in one JSON object"}
    # Human messages go to stderr and name the line.
    assert "line 1: cannot read card 'Zz'" in result.stderr
    assert "line 8:" in result.stderr
    assert all(line.startswith("{") for line in result.stdout.splitlines())


def test_blank_lines_are_skipped() -> None:
    result = referee(stdin='\n{"play": "Kj"}\n   \n\n{"play": "pass"}\n\n')
    assert result.returncode == 0
    assert [line.get("legal") for line in output_lines(result)] == [True, False]


def test_reads_a_file(tmp_path: Path) -> None:
    path = tmp_path / "situations.jsonl"
    path.write_text(json.dumps({"play": "2j 2s 2p 2t", "trick": ["Dragon"], "turn": False}) + "\n")
    result = referee(str(path))
    assert result.returncode == 0
    assert output_lines(result) == [
        {"legal": True, "combination": {"kind": "bomb", "rank": 2, "length": 4}, "points": 0, "reason": None}
    ]


def test_dash_means_stdin() -> None:
    result = referee("-", stdin='{"play": "Dog"}\n')
    assert output_lines(result)[0]["combination"] == {"kind": "dog", "length": 1}


def test_a_missing_file_is_reported() -> None:
    result = referee("/nonexistent/situations.jsonl")
    assert result.returncode == 2
    assert "cannot read /nonexistent/situations.jsonl" in result.stderr
    assert json.loads(result.stdout)["error"].startswith("cannot read")


def test_not_utf8_is_an_error_line() -> None:
    result = subprocess.run(
        [str(TRICKMATE), "referee"],
        input=b'{"play": "\xff"}\n{"play": "Kj"}\n',
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    out = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert out[0] == {"error": "the line is not UTF-8 text"}
    assert out[1]["legal"] is True


@pytest.mark.parametrize("flag", ["-h", "--help"])
def test_help(flag: str) -> None:
    result = referee(flag)
    assert result.returncode == 0
    assert "JSON Lines" in result.stdout


def test_answers_one_line_at_a_time() -> None:
    """Another program can write a line and read its verdict before writing the next."""
    process = subprocess.Popen(
        [str(TRICKMATE), "referee"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        for play, legal in (("Kj", True), ("pass", False), ("5j 6s", False)):
            process.stdin.write(json.dumps({"play": play}) + "\n")
            process.stdin.flush()
            assert json.loads(process.stdout.readline())["legal"] is legal
    finally:
        process.stdin.close()
        process.wait(timeout=30)
    assert process.returncode == 0


def test_a_reader_that_stops_early_ends_the_command_quietly(tmp_path: Path) -> None:
    # `trickmate referee big.jsonl | head -1`: the pipe closes while verdicts are still being
    # written; the command stops without a traceback, with the status of a broken pipe.
    situations = tmp_path / "big.jsonl"
    situations.write_text("".join(json.dumps(CONTRACT_SITUATION) + "\n" for _ in range(20000)))
    process = subprocess.Popen(
        [str(TRICKMATE), "referee", str(situations)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stderr is not None
    first = json.loads(process.stdout.readline())
    process.stdout.close()
    assert process.wait(timeout=60) == 141
    assert first["legal"] is True
    assert "Traceback" not in process.stderr.read()
