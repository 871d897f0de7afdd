"""A German visitor's phone shows a whole game in German, and a French visitor who picks
French keeps it: the pages' own words, the task, why the board is wrong, the winner and
the scoreboard, in a real browser (Debian's chromium through Playwright, conftest.py)."""

from __future__ import annotations

import os
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from boardctl.sim.session import Simulation

WAIT = 8000  # ms
SHOTS = os.environ.get("BOARDCTL_SCREENSHOTS")


@pytest.fixture(scope="module")
def sim() -> Iterator[Simulation]:
    with Simulation(
        "shiftago", overrides=['web.listen="127.0.0.1:0"', "controller.settle_ms=40"]
    ) as s:
        yield s


def _phone(browser: Any, locale: str) -> Any:
    """A phone-sized page whose browser asks for ``locale`` (its Accept-Language)."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale=locale, bypass_csp=True
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    return page


def _play(sim: Simulation, hand: str) -> None:
    n = len(sim.status()["moves"])
    sim.hands(hand)
    sim.wait_status(lambda st: len(st["moves"]) == n + 1, 5.0)


def _text_is(page: Any, node: str, text: str) -> None:
    page.wait_for_function(
        f"document.getElementById({node!r}).textContent === {text!r}", timeout=WAIT
    )


def _shows(page: Any, text: str) -> None:
    page.wait_for_function(f"document.body.innerText.includes({text!r})", timeout=WAIT)


def test_a_german_game_end_to_end_in_german_on_every_surface(sim: Simulation, browser: Any) -> None:
    sim.clear_board()
    sim.request({"cmd": "new", "game": "shiftago", "options": {}})
    sim.wait_status(lambda st: not st["moves"] and st["phase"] == "awaiting_move", 5.0)
    url = str(sim.daemon.web.url)
    board = _phone(browser, "de-DE")
    board.goto(url + "/")
    assert board.locator("html").get_attribute("lang") == "de"
    # the page's own words
    _text_is(board, "turn", "Blau (Spieler 1) ist dran: eine Kugel einschieben")
    nav = board.locator("nav").inner_text()
    assert "Brett" in nav and "Punktetafel" in nav and "Betreuung" in nav
    assert board.locator("h2", has_text="Letzte Züge").count() == 1
    assert board.title() == "boardctl: Brett live"

    _play(sim, "insert Sa")
    _text_is(board, "turn", "Rot (Spieler 2) ist dran: eine Kugel einschieben")
    # a marble set down rather than pushed in: the reason, in German
    sim.hands("place d4 red")
    sim.wait_status(lambda st: st["phase"] == "wrong_board", 5.0)
    _shows(
        board,
        "Nicht erlaubt: eine Kugel wird von der Seite durch eine Bahn eingeschoben, "
        "nie auf d4 gesetzt.",
    )
    _shows(board, "Das Brett ist nicht so, wie das Spiel es erlaubt")
    assert board.locator("h2", has_text="Was auf dem Brett nicht stimmt").is_visible()
    sim.hands("lift d4")
    sim.wait_status(lambda st: st["phase"] == "awaiting_move", 5.0)

    for hand in ("insert Na", "insert Sb", "insert Nb", "insert Sc", "insert Nc", "insert Sd"):
        _play(sim, hand)
    # a marble's name on the board picture, as the published German rules name it
    title = board.locator('[data-site="a1"] title').text_content()
    assert title == "a1: blaue Kugel"
    _play(sim, "insert Nd")
    _play(sim, "insert Se")  # blue's fifth marble on row 1: a line of five
    status = sim.wait_status(lambda st: st["phase"] == "game_over", 5.0)
    assert status["winner"] == 0
    _text_is(
        board, "turn", "Blau (Spieler 1) gewinnt: Blau hat eine Reihe aus 5 oder mehr gebildet"
    )

    score = _phone(browser, "de-DE")
    score.goto(url + "/score")
    _text_is(score, "winner", "Blau (Spieler 1) gewinnt!")
    _shows(score, "Heute")
    # the longer German words still fit a phone's width
    for page in (board, score):
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        if SHOTS:
            page.screenshot(
                path=str(Path(SHOTS) / f"{page.url.rsplit('/', 1)[-1] or 'board'}-de.png")
            )
    words = score.locator("body").inner_text() + board.locator("body").inner_text()
    for english in ("wins", "to insert", "Today", "Scores", "Last moves", "player 1"):
        assert english not in words, f"{english!r} left in English on a German page"
    assert not board.errors and not score.errors, board.errors + score.errors


def test_a_visitor_picks_french_and_every_page_keeps_it(sim: Simulation, browser: Any) -> None:
    sim.clear_board()
    sim.request({"cmd": "new", "game": "shiftago", "options": {}})
    sim.wait_status(lambda st: not st["moves"] and st["phase"] == "awaiting_move", 5.0)
    url = str(sim.daemon.web.url)
    page = _phone(browser, "de-DE")
    page.goto(url + "/")
    _text_is(page, "turn", "Blau (Spieler 1) ist dran: eine Kugel einschieben")
    with page.expect_navigation():
        page.select_option("#language", "fr")
    _text_is(page, "turn", "à bleu (joueur 1) de jouer : pousser une bille")
    assert page.locator("html").get_attribute("lang") == "fr"
    # remembered: the scoreboard, opened later in the same browser, is French too
    page.goto(url + "/score")
    _shows(page, "Aujourd'hui")
    _text_is(page, "turn", "à bleu (joueur 1) de jouer : pousser une bille")
    assert page.locator("#language").input_value() == "fr"
    # the operator's form: the engine's option labels and choices, and the board's language
    page.goto(url + "/operator")
    page.wait_for_selector("#option-players", timeout=WAIT, state="attached")
    assert page.locator('label[for="option-players"]').inner_text() == "Joueurs"
    assert page.locator('label[for="option-variant"]').inner_text() == "Variante"
    # the version line is filled once the board's answer arrives: wait for it
    page.wait_for_function(
        "document.getElementById('version').textContent.includes('le plateau parle English')",
        timeout=WAIT,
    )
    assert page.locator("button#new").inner_text() == "Nouvelle partie"
    assert not page.errors, page.errors


def test_a_browser_asking_for_no_language_of_ours_gets_the_boards(sim: Simulation) -> None:
    url = str(sim.daemon.web.url)
    for header, lang in (("it-IT,it;q=0.9", "en"), ("fr-CH, de;q=0.5", "fr"), ("", "en")):
        request = urllib.request.Request(url + "/score", headers={"Accept-Language": header})
        with urllib.request.urlopen(request, timeout=5) as answer:
            assert answer.headers["Content-Language"] == lang
            assert f'<html lang="{lang}">' in answer.read().decode()
