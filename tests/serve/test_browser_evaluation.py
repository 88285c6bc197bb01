"""The evaluation bar and the win-chance curve of the page, in a real
browser (as ``test_browser.py``), for both games: the bar follows the
position on screen, the curve fills in, a point of the curve shows its
position, and the switch stops the evaluations."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest

from .conftest import Ui, wait_until
from .test_browser import api_state, game_id, settled


def evaluation(ui: Ui, ply: int) -> dict[str, Any]:
    """The server's evaluation of ``ply`` (cached: the page asked for it first)."""
    request = urllib.request.Request(
        f"{ui.server}/api/games/{game_id(ui)}/evaluation",
        data=json.dumps({"ply": ply}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        found: dict[str, Any] = json.load(response)
    return found


def bar_percent(ui: Ui) -> str | None:
    value: str | None = ui.page.get_attribute("#eval-bar", "aria-valuenow")
    return value


def curve_points(ui: Ui) -> list[int]:
    plies: list[int] = ui.page.eval_on_selector_all(
        "#curve circle[data-ply]", "cs => cs.map(c => Number(c.dataset.ply))"
    )
    return plies


def test_the_bar_shows_the_position_on_screen_and_the_curve_fills_in(ui: Ui) -> None:
    ui.open("?variant=small&seat=watch&seconds=0.02&seed=3")
    state = wait_until(lambda: (s := api_state(ui))["over"] and s, "the end of the game")
    ui.page.click("#eval-all")
    ui.page.wait_for_function(
        "plies => !document.getElementById('eval-all').disabled"
        " && document.querySelectorAll('#curve circle[data-ply]').length === plies + 1",
        arg=len(state["moves"]),
        timeout=60_000,
    )
    assert sorted(curve_points(ui)) == list(range(len(state["moves"]) + 1))
    # A point of the curve shows its position; the bar then shows its chance.
    ui.page.click('#curve circle[data-ply="2"]', force=True)
    ui.page.wait_for_function(
        """() => document.querySelector('#moves [aria-current="true"]').dataset.ply === "2"
            && document.getElementById('eval-text').textContent.includes('%')"""
    )
    expected = evaluation(ui, 2)
    ui.page.wait_for_function(
        "want => document.getElementById('eval-bar').getAttribute('aria-valuenow') === want",
        arg=f"{100 * expected['first']:.0f}",
    )
    width = ui.page.evaluate(
        "() => document.getElementById('eval-fill').getBoundingClientRect().width"
        " / document.getElementById('eval-bar').clientWidth"
    )
    assert width == pytest.approx(expected["first"], abs=0.02)
    ui.shot("evaluation")
    first, second = expected["players"]
    text = ui.page.inner_text("#eval-text")
    assert first in text
    assert second in text
    assert state["game"] == "veletas"


def test_meridians_has_the_bar_and_the_curve(ui: Ui) -> None:
    ui.open("?game=meridians&size=5-6&seat=light&seconds=0.02&seed=2")
    ui.page.click('#board [data-square="e5"]')
    shown = settled(ui, beyond=0)["view"]["ply"]
    # The position on screen is evaluated once the bot has moved.
    ui.page.wait_for_function(
        "ply => document.querySelector(`#curve circle[data-ply='${ply}']`) !== null"
        " && document.getElementById('eval-text').textContent.includes('%')",
        arg=shown,
        timeout=60_000,
    )
    text = ui.page.inner_text("#eval-text")
    assert "you (" in text
    assert "mcts" in text
    assert shown in curve_points(ui)
    ui.shot("meridians")


def test_switching_evaluation_off_asks_for_none(ui: Ui) -> None:
    ui.open("?variant=small&seat=black&seconds=0.02&seed=4")
    ui.page.uncheck("#eval-on")
    asked: list[str] = []
    ui.page.on("request", lambda r: asked.append(r.url) if r.url.endswith("/evaluation") else None)
    ui.page.click('#board [data-square="d4"]')
    ui.page.wait_for_function("() => document.querySelectorAll('#moves li').length >= 2")
    ui.page.keyboard.press("Home")
    ui.page.wait_for_function(
        """() => document.querySelector('#moves [aria-current="true"]').dataset.ply === "0\""""
    )
    assert asked == []
