"""Every text scenario in tests/companion/scenarios/ plays a whole round to its checked end."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.tichu.round import Phase
from companion.tichu.scenario import ScenarioError, main, run_scenario, run_scenario_file

SCENARIOS = sorted((Path(__file__).parent / "scenarios").glob("*.txt"))


def test_there_are_scenarios() -> None:
    assert len(SCENARIOS) >= 5


@pytest.mark.parametrize("path", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_scenario_plays_to_its_scored_end(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    game = run_scenario_file(path)
    # Every scenario is a whole round whose score it checks.
    assert game.phase is Phase.OVER
    assert "expect: score" in text


HANDS = """
hands:
0: Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
1: 2s 3s 4s 5s 6s 7j 8j 9j 10j Jj Qj Kj Aj Dog
2: 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap Phoenix
3: 2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At Dragon
start: play
"""


@pytest.mark.parametrize(
    ("lines", "problem"),
    [
        ("1 plays Dog", "line 8: '1 plays Dog': seat 1 plays Dog: it is seat 0's lead"),
        ("expect: turn 1", "it is seat 0's turn"),
        ('expect error "nonsense": 0 plays Mahjong', "the action was allowed"),
        ('expect error "nonsense": 1 plays Dog', "refused as expected, but with"),
        ("expect: hand 0: Mahjong", "seat 0 holds: Mahjong 2j"),
        ("0 dances", "cannot read the action"),
        ("expect: colour red", "unknown expectation"),
        ("0 plays Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As\nexpect: score 0=0 1=0", "not over"),
    ],
)
def test_a_failing_line_names_itself(lines: str, problem: str) -> None:
    with pytest.raises(ScenarioError) as caught:
        run_scenario(HANDS + lines)
    assert problem in str(caught.value)


def test_hands_must_come_first() -> None:
    with pytest.raises(ScenarioError, match="hands of seats 0 to 3"):
        run_scenario("0 plays Mahjong")


def test_main_prints_the_events_and_the_score(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.txt"
    broken.write_text(HANDS + "expect: turn 3\n", encoding="utf-8")
    assert main([str(SCENARIOS[0]), str(broken)]) == 1
    captured = capsys.readouterr()
    assert '{"0": 300, "1": 0}' in captured.out
    assert "seat 2 plays Phoenix; seat 2 is out; the round is over" in captured.out
    assert "FAILED: line 8: 'expect: turn 3': it is seat 0's turn" in captured.err
