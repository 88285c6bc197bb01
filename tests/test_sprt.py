"""The sequential test of ``veletas match --sprt`` (:mod:`veletas.sprt`)."""

from __future__ import annotations

import json
import math

import pytest
import veletas
from veletas.cli import main
from veletas.sprt import Sprt, parse_sprt, share


def test_the_bounds_are_walds() -> None:
    test = Sprt(0, 10, alpha=0.05, beta=0.1)
    assert test.lower == pytest.approx(math.log(0.1 / 0.95))
    assert test.upper == pytest.approx(math.log(0.9 / 0.05))
    assert (test.decision(3.0), test.decision(-2.3), test.decision(0.0)) == ("H1", "H0", None)


def test_the_llr_grows_with_a_s_score_and_mirrors_for_b() -> None:
    test = Sprt(0, 20)
    counts = [[4, 8, 20, 8, 4], [3, 8, 20, 9, 4], [2, 7, 20, 11, 4], [1, 5, 20, 14, 4]]
    values = [test.llr(c) for c in counts]
    assert values == sorted(values)
    # B's view: the outcomes reversed and the hypotheses negated.
    mirror = Sprt(-20, 0)
    for c in counts:
        assert mirror.llr(c[::-1]) == pytest.approx(-test.llr(c))
    assert test.llr([0, 0, 0, 0, 0]) == 0.0


def test_the_llr_is_the_normal_approximation_with_the_prior() -> None:
    counts = [1, 2, 3, 4, 5]
    weights = [c + 0.5 for c in counts]
    total = sum(weights)
    mean = sum(w * i / 4 for i, w in enumerate(weights)) / total
    variance = sum(w * (i / 4 - mean) ** 2 for i, w in enumerate(weights)) / total
    s0, s1 = share(-5), share(15)
    expected = 15 * (s1 - s0) * (2 * mean - s0 - s1) / (2 * variance)
    assert Sprt(-5, 15).llr(counts) == pytest.approx(expected)
    assert share(0) == 0.5
    assert share(400) == pytest.approx(10 / 11)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("10", "expected ELO0,ELO1"),
        ("a,b", "two numbers"),
        ("10,0", "elo0 must be below"),
        ("0,nan", "within"),
        ("0,5000", "within"),
    ],
)
def test_bad_tests_are_refused(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_sprt(text)


def test_a_match_stops_once_the_test_decides() -> None:
    strong = veletas.match(
        "mcts:iterations=300", "random", 200, variant="small", openings=100, sprt="0,100"
    )
    assert strong.sprt is not None
    assert strong.sprt.decision == "H1"
    assert len(strong) < 200
    assert strong.sprt.llr >= strong.sprt.test.upper
    assert sum(strong.sprt.pentanomial) * 2 <= len(strong)
    even = veletas.match("random", "random", 400, variant="small", openings=200, sprt="150,300")
    assert even.sprt is not None
    assert even.sprt.decision == "H0"
    assert len(even) < 400


def test_the_command_prints_and_carries_the_test(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["match", "mcts:iterations=300", "random", "--openings", "100", "--sprt", "0,100"]
    assert main([*argv, "--variant", "small"]) == 0
    assert "H1 accepted: A is +100 Elo or more" in capsys.readouterr().out
    assert main([*argv, "--variant", "small", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["sprt"]["decision"] == "H1"
    assert summary["sprt"]["upper"] == pytest.approx(math.log(0.95 / 0.05))
    assert main(["match", "random", "greedy", "random", "--round-robin", "--sprt", "0,10"]) == 2
    assert "--sprt tests a match" in capsys.readouterr().err
