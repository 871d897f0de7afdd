"""A seat played on a phone: the player away from the board chooses their move
on their private page, and the board lights it for the hands there to make,
as it lights the computer's. Through the controller, then in Chromium."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.phones import NotYourTurn, Phones
from boardctl.engines import CHANCE, Match, create
from boardctl.seats import Seats
from boardctl.sim.session import Simulation

PAGE_WAIT = 15000  # ms


def _table() -> tuple[Table, Phones]:
    phones = Phones()
    seeds = itertools.count(700)
    c = Controller(
        profile_for(create("shiftago")),
        seats=Seats.from_str("hands,phone"),
        phone=phones,
        seeds=lambda: next(seeds),
    )
    table = Table(c)
    table.settle()
    return table, phones


def test_the_move_chosen_on_the_phone_is_lit_and_taken() -> None:
    table, phones = _table()
    c = table.controller
    assert phones.turn(1)["turn"] is False  # the hands at the board play first
    table.hands("insert W3", "p0")
    table.settle()
    turn = phones.turn(1)
    assert turn["turn"] is True and "E1" in turn["moves"] and turn["ply"] == 1
    assert phones.turn(0)["turn"] is False
    assert c.status()["remote"] == {
        "seat": 1,
        "board": "",
        "doing": "waiting",
        "moves": [],
        "phone": True,
    }
    with pytest.raises(ControllerError, match="the player on their phone plays this turn"):
        c.play("E1", table.now)
    with pytest.raises(NotYourTurn):
        phones.chosen(0, "E1")
    with pytest.raises(NotYourTurn):
        phones.chosen(1, "E1", ply=0)  # a page drawn before the last move
    with pytest.raises(ValueError, match="not a move you may make now"):
        phones.chosen(1, "Q9")
    c.computer_answered(phones.chosen(1, "E1"), table.now)
    assert c.status()["remote"]["doing"] == "ready"
    assert c.status()["remote"]["moves"] == ["E1"]
    table.hands("insert E1", "p1")
    table.settle()
    assert c.status()["moves"] == ["W3", "E1"]


def test_a_phone_seat_needs_the_web_pages() -> None:
    with pytest.raises(ControllerError, match="set \\[web\\] listen"):
        Controller(profile_for(create("shiftago")), seats=Seats.from_str("phone"))


@pytest.fixture(scope="module")
def chromium(browser: Any) -> Any:
    """The session's one Chromium (tests/conftest.py): Playwright's sync API
    drives one browser per process."""
    return browser


def test_a_phone_plays_a_seat_from_its_private_page(chromium: Any) -> None:
    with Simulation(
        "shiftago",
        overrides=[
            'web.listen="127.0.0.1:0"',
            "controller.settle_ms=40",
            'game.seats="hands,phone"',
        ],
    ) as sim:
        url = str(sim.daemon.web.url)
        sim.wait_status(lambda s: s["phase"] == "awaiting_move", 10.0)
        context = chromium.new_context(bypass_csp=True)
        phone_context = chromium.new_context(bypass_csp=True)
        try:
            operator = context.new_page()
            operator.goto(url + "/operator")
            operator.click('button[data-phone="1"]', timeout=PAGE_WAIT)
            # the player named as every page names them
            assert (
                operator.locator(".phone-seat")
                .inner_text()
                .startswith("red (player 2) plays on their phone")
            )
            link = operator.get_attribute(
                'a.phone-link[data-player="1"]', "href", timeout=PAGE_WAIT
            )
            phone = phone_context.new_page()
            phone.goto(str(link))
            board = context.new_page()  # the public board, in the room
            board.goto(url + "/")
            sim.hands("insert W3")
            sim.wait_status(lambda s: s["moves"] == ["W3"], 10.0)
            # the room is told in words who plays apart and what they did, as for its own moves
            _says(board, "turn", "red (player 2) on their phone to insert a marble")
            _says(board, "problems", "red (player 2) on their phone is choosing a move")
            phone.click('button.phone-move[data-move="E1"]', timeout=PAGE_WAIT)
            lit = sim.wait_status(lambda s: (s.get("remote") or {}).get("doing") == "ready", 10.0)
            assert lit["remote"]["moves"] == ["E1"]
            _says(
                board, "problems", "red (player 2) on their phone played E1: make it on the board"
            )
            phone.wait_for_function(
                "document.getElementById('phone-said').textContent.includes('You chose E1')",
                timeout=PAGE_WAIT,
            )
            sim.hands("insert E1")
            sim.wait_status(lambda s: s["moves"] == ["W3", "E1"], 10.0)
        finally:
            context.close()
            phone_context.close()


def _says(page: Any, element: str, words: str) -> None:
    page.wait_for_function(
        f"document.getElementById({element!r}).textContent.includes({words!r})",
        timeout=PAGE_WAIT,
    )


def test_a_game_is_not_put_away_while_the_phone_player_chooses() -> None:
    table, phones = _table()
    c = table.controller
    table.hands("insert W3", "p0")
    table.settle()
    assert phones.turn(1)["turn"] is True
    table.wait(c.timing.abandon_after + 5 * 60.0)
    assert c.status()["moves"] == ["W3"], "the game is kept for the player on the phone"
    assert phones.turn(1)["turn"] is True
    c.computer_answered(phones.chosen(1, "E1"), table.now)
    table.hands("insert E1", "p1")
    table.settle()
    assert c.status()["moves"] == ["W3", "E1"]


def test_a_phone_page_beside_the_computer_lists_starts_that_do_not_tell_its_line() -> None:
    """Linie 1 with the cards on the table and the computer in seat 2 (its
    cards dealt privately): the moves the page of a person in seat 1 would
    list are the same whichever line and route card the computer was dealt,
    starts at its line's terminals and with its route card among them;
    choosing one is taken as any move. (A phone is not
    seated in a game that keeps secrets yet: this is the page's list for
    such a seat's turn.)"""
    from boardctl.controller.opponent import Think
    from boardctl.seats import PHONE

    engine = create("linie1").seated(frozenset({1}))
    every = {f"start:t{n}{end}" for n in range(1, 7) for end in "ab"}
    pages = set()
    for line in range(1, 7):
        match = Match.from_moves(engine, [f"deal:L{line}", f"deal:B{7 - line}"])
        while engine.actor(match.state) is CHANCE:  # its spare lines
            match.play(engine.chance_outcomes(match.state)[0][0])
        phones = Phones()
        phones.ask(Think(1, engine, match.state, 0, 0, 0, len(match.states) - 1, kind=PHONE))
        turn = phones.turn(0)
        assert {m.split("/")[0] for m in turn["moves"] if m.startswith("start:")} == every
        pages.add(tuple(turn["moves"]))
        chosen = phones.chosen(0, f"start:t{line}a/B{7 - line}")  # its route card too
        assert chosen.actions == (f"start:t{line}a/B{7 - line}",)
    assert len(pages) == 1, "the page's moves are the same whichever cards the computer holds"


@pytest.mark.parametrize(
    ("game", "options", "why"),
    [
        ("linie1", {}, r"'hands,phone': chance acts in linie1.*not played from a phone"),
        (
            "linie1",
            {"secrets": "dealt"},
            r"'hands,phone': linie1 keeps secrets.*not played from a phone",
        ),
        ("bidiline", {}, None),
    ],
)
def test_a_phone_seat_is_refused_in_words_about_a_phone(
    game: str, options: dict[str, str], why: str | None
) -> None:
    """A game a phone cannot play yet (Linie 1: the die, and with the cards
    dealt by the board each player's secret line) refuses the phone seat in
    words about a phone, not about another board; a game without secrets
    or chance takes it."""
    engine = create(game, options)
    c = Controller(profile_for(engine), phone=Phones(), seeds=itertools.count(5).__next__)
    table = Table(c)
    table.settle()
    if why is None:
        c.new(None, None, table.now, Seats.from_str("hands,phone"))
        assert c.status()["seats"] == ["hands", "phone"]
        return
    with pytest.raises(ControllerError, match=why) as refused:
        c.new(None, options, table.now, Seats.from_str("hands,phone"))
    assert "another board" not in str(refused.value)
