"""The choosing phase: the mover picks one of several options, lit side by
side, with a button, from the control socket, or on the board."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from controller_support import Table, profile_for

from boardctl.cli.main import main
from boardctl.controller.control import ControlServer
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller, ControllerError
from boardctl.controller.phases import Timing
from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import ButtonPress
from boardctl.sim import hands

#: a presence board after these: red holds a1-c1, so blue's marble pushed in
#: at W1 and one dropped in at Sd both fill d1, and only the games differ
BEFORE_AMBIGUITY = ("W7", "W1", "W6", "W1", "W5", "W1")


class _Strip:
    def show(self, frame: Any) -> None:
        pass


def _insert(table: Table, track: str, gates: bool = True) -> None:
    mover = table.controller.match.to_move()
    changes = hands.insert(table.controller.match.engine.board(), table.layout, track, f"p{mover}")
    if not gates:
        changes = [ch for ch in changes if ch.piece != hands.PULSE]
    table.apply(changes)
    table.settle()


def _ambiguous() -> Table:
    engine = create("shiftago")
    table = Table(Controller(profile_for(engine, presence=True), timing=Timing(attract_after=0)))
    table.settle()
    for track in BEFORE_AMBIGUITY:
        _insert(table, track)
    assert table.controller.match.moves_text() == list(BEFORE_AMBIGUITY)
    _insert(table, "W1", gates=False)  # no gate saw it: W1 or Sd?
    return table


def test_a_board_several_moves_explain_is_a_choice_not_ambiguous_forever() -> None:
    table = _ambiguous()
    c = table.controller
    assert c.state is Phase.CHOOSING
    status = c.status()
    assert status["choices"] == ["W1", "Sd"] and status["verdict"] == "ambiguous"
    assert c.view().legal == {"W1", "Sd"}
    loop = Loop(c, _Strip(), clock=lambda: table.now)
    reply = loop.command({"cmd": "choose", "option": "W1"}, table.now)
    assert reply["chosen"] == "W1" and reply["phase"] == "awaiting_move"
    assert c.match.moves_text()[-1] == "W1"
    assert c.match.to_move() == 1


def test_an_option_is_named_by_its_number_and_a_wrong_one_is_refused() -> None:
    table = _ambiguous()
    c = table.controller
    with pytest.raises(ControllerError, match="the options are 1 W1, 2 Sd"):
        c.choose("E1", table.now)
    assert c.choose("2", table.now) == "Sd"
    assert c.state is Phase.AWAITING_MOVE
    with pytest.raises(ControllerError, match="nothing to choose"):
        c.choose("W1", table.now)


def test_the_mode_button_steps_through_the_options_and_one_left_alone_is_taken() -> None:
    table = _ambiguous()
    c = table.controller
    c.feed(ButtonPress("mode"), table.now)
    c.feed(ButtonPress("mode"), table.now)
    view = c.view()
    assert view.cursor == 1 and view.offers[1] == {"Sd"}
    profile = c.profile
    # the option picked blinks in the mover's colour; the other one glows
    on = render(view, profile, Palette(), view.since)
    sd, w1 = profile.site("Sd").leds[0], profile.site("W1").leds[0]
    assert on[sd] == Palette().player(0) and on[w1] != on[sd]
    table.wait(c.timing.choose_hold - 0.5)
    assert c.state is Phase.CHOOSING, "not yet: another press may follow"
    table.wait(1.0)
    assert c.match.moves_text()[-1] == "Sd" and c.state is Phase.AWAITING_MOVE


def test_undo_lets_go_of_the_option_picked_and_a_change_on_the_board_ends_the_choice() -> None:
    table = _ambiguous()
    c = table.controller
    c.feed(ButtonPress("mode"), table.now)
    c.feed(ButtonPress("undo"), table.now)
    assert c.view().cursor is None and c.match.moves_text() == list(BEFORE_AMBIGUITY)
    table.hands("lift d1")  # the marble taken out again: the move is not made
    table.hands("lift a1")
    table.hands("place a1 p1")
    assert c.state is Phase.AWAITING_MOVE
    assert c.match.moves_text() == list(BEFORE_AMBIGUITY)
    assert "choices" not in c.status()


SCORING = [
    "W2",
    "E4",
    "W3",
    "E6",
    "W4",
    "Sg",
    "W5",
    "E6",
    "Sb",
    "E2",
    "Sc",
    "E1",
    "Sd",
    "E4",
    "Se",
    "E5",
    "W7",
    "Sf",
    "W7",
    "E2",
    "W7",
    "Sf",
    "E7",
    "E4",
    "E7",
    "E2",
    "E7",
    "E4",
    "Sa",
]


def _scoring() -> Table:
    options = {"players": 2, "variant": "expert"}
    engine = create("shiftago", options)
    table = Table(Controller(profile_for(engine), options=options, timing=Timing(attract_after=0)))
    table.settle()
    for track in SCORING:
        _insert(table, track)
    return table


def test_a_line_to_score_is_a_choice_the_board_makes_or_an_operator() -> None:
    table = _scoring()
    c = table.controller
    assert c.state is Phase.CHOOSING
    status = c.status()
    assert status["choices"] == ["x:a1-e1", "x:a1-a5"]
    line_1 = {f"{f}1" for f in "abcde"}
    column_a = {f"a{r}" for r in range(1, 6)}
    assert c.view().legal == line_1 | column_a
    assert c.choose("x:a1-e1", table.now) == "x:a1-e1"
    # the operator chose; the board must follow: the marbles of the line come off
    table.wait(c.timing.grace + 0.1)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["offending"] == ["b1", "c1", "d1"]
    for site in ("b1", "c1", "d1"):
        table.hands(f"lift {site}")
    assert c.state is Phase.AWAITING_MOVE
    assert c.match.moves_text()[-1] == "x:a1-e1"


def test_boardctl_choose_and_status_through_the_control_socket(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    table = _ambiguous()
    loop = Loop(table.controller, _Strip(), clock=lambda: table.now)

    def answer(body: Any) -> dict[str, Any]:
        return {"ok": True, **loop.command(body, table.now)}

    with ControlServer(tmp_path / "control.sock", answer) as server:
        assert main(["status", "--socket", str(server.path)]) == 0
        lines = capsys.readouterr().out.splitlines()
        assert "choice 1: W1" in lines and "choice 2: Sd" in lines
        assert main(["choose", "Sd", "--socket", str(server.path)]) == 0
        assert capsys.readouterr().out.strip() == "chose Sd"
        assert main(["choose", "Sd", "--socket", str(server.path)]) != 0
    assert "nothing to choose" in capsys.readouterr().err


def _sticks(presence: bool) -> Table:
    """A Bidirectional Line Game board; the first stick laid on d4-d5 (the A end
    at d5, or at d4: the same stick)."""
    engine = create("bidiline")
    profile = profile_for(engine, presence=presence)
    table = Table(Controller(profile, timing=Timing(attract_after=0)))
    table.settle()
    table.hands("place d4-d5 A")
    table.settle()
    return table


@pytest.mark.parametrize("presence", [False, True])
@pytest.mark.parametrize(
    ("stick", "moves"),
    [("d3-d4", ["A:d4-d5", "B:d4-d3"]), ("d5-d6", ["A:d5-d4", "B:d5-d6"])],
)
def test_a_further_stick_only_one_option_explains_makes_the_choice(
    presence: bool, stick: str, moves: list[str]
) -> None:
    table = _sticks(presence)
    c = table.controller
    assert c.state is Phase.CHOOSING
    assert c.status()["choices"] == ["A:d4-d5", "A:d5-d4"]
    # blue lays the second stick from where the first started: that shows where it started
    table.hands(f"place {stick} B")
    table.settle()
    assert c.match.moves_text() == moves
    assert c.state is Phase.AWAITING_MOVE
    assert "choices" not in c.status()


def test_a_further_stick_no_option_explains_is_wrong_and_the_choice_stays_open() -> None:
    table = _sticks(presence=False)
    c = table.controller
    table.hands("place a1-b1 B")  # next to neither end
    table.wait(c.timing.grace + 0.1)
    assert c.state is Phase.WRONG_BOARD and c.status()["offending"] == ["a1-b1"]
    assert c.match.moves_text() == []
    table.hands("lift a1-b1")
    table.settle()
    assert c.state is Phase.CHOOSING
    table.hands("place c4-d4 B")  # from d4: the first stick went from d4 to d5
    table.settle()
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-c4"]


def test_where_the_ends_meet_a_presence_board_asks_for_the_colour() -> None:
    table = _sticks(presence=True)
    c = table.controller
    for stick in ("d3-d4", "d5-e5", "d3-e3", "e4-e5"):
        table.hands(f"place {stick} B")
        table.settle()
    assert c.match.moves_text() == ["A:d4-d5", "B:d4-d3", "A:d5-e5", "B:d3-e3", "A:e5-e4"]
    # A at e4, B at e3: e3-e4 is A:e4-e3 (both ends then at e3) or B:e3-e4 (both at e4)
    table.hands("place e3-e4 B")
    assert c.state is Phase.CHOOSING
    table.hands("place e4-f4 B")  # only from e4: the ends met there
    assert c.match.moves_text()[5:] == ["B:e3-e4"]
    # both ends at e4: e4-f4 is either colour, and no stick laid later can tell
    assert c.state is Phase.CHOOSING
    assert c.status()["choices"] == ["A:e4-f4", "B:e4-f4"]
    table.hands("place f4-g4 B")  # the game goes on while the choice waits
    assert c.state is Phase.CHOOSING and "offending" not in c.status()
    assert c.choose("B:e4-f4", table.now) == "B:e4-f4"
    table.settle()
    assert c.match.moves_text()[5:] == ["B:e3-e4", "B:e4-f4", "B:f4-g4"]
    assert c.state is Phase.AWAITING_MOVE
