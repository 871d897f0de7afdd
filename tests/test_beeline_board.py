"""Beeline on its reference board, as hands play it: the starting NODES set out,
replacements made in either order, send-backs lifted piece by piece, wrong
pieces, and what the LEDs show at each moment (each RUT and line in its
player's colour, what a half-done action still needs, the winning line)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table
from twin_support import plan_game

from boardctl.controller.machine import Controller
from boardctl.controller.reconcile import InProgress
from boardctl.controller.scenes import Palette, render, scale
from boardctl.controller.view import Phase
from boardctl.engines import Match
from boardctl.engines.beeline import Beeline, Mark, Node, Replace
from hardware.profiles import load_profile

PROFILE = load_profile("beeline")
SAMPLE: list[str] = json.loads(
    (Path(__file__).parent / "records" / "beeline" / "sample_game.json").read_text()
)["moves"]
PALETTE = Palette.from_hex(PROFILE.palette)


def _table() -> Table:
    table = Table(Controller(PROFILE, options={}))
    table.settle()
    return table


def _set_out(table: Table) -> None:
    table.hands("place b4 node-black")
    table.hands("place l10 node-red")


def _play(table: Table, texts: list[str]) -> None:
    """Each action as a person makes it: a MARK or NODE put down; a
    replacement's MARK lifted, then the NODE put in its place and the MARK at
    the line's end (or the other way round); the pieces a send-back takes off
    lifted one by one after the piece that caused it."""
    c = table.controller
    for text in texts:
        lift_first = len(c.match.actions) % 2 == 0
        state = c.match.state
        action = c.engine.parse_action(text)
        after = c.engine.layout(c.engine.apply(state, action))
        if isinstance(action, Replace):
            table.hands(f"lift {action.cell}")
            puts = [action.cell, action.to] if lift_first else [action.to, action.cell]
            for cell in puts:
                table.hands(f"place {cell} {after[cell]}")
        else:
            assert isinstance(action, Mark | Node)
            table.hands(f"place {action.cell} {after[action.cell]}")
        for cell in sorted(s for s in table.layout if s not in after):
            table.hands(f"lift {cell}")
        assert c.match.moves_text()[-1] == text, c.board.verdict


def _frame(table: Table) -> Any:
    c = table.controller
    return render(c.view(), PROFILE, PALETTE, c.since + 0.1)


def _colour(frame: Any, site: str) -> tuple[int, int, int]:
    return frame[PROFILE.site(site).leds[0]]


def test_a_new_game_asks_for_the_starting_nodes_and_then_lights_both_ruts() -> None:
    table = _table()
    c = table.controller
    assert c.state is Phase.SETUP
    assert c.status()["restore"] == {"b4": "node-black", "l10": "node-red"}
    _set_out(table)
    assert c.state is Phase.AWAITING_MOVE
    frame = _frame(table)
    # a line's RUT ending in its starting NODE: every cell around it, bright
    assert _colour(frame, "c4") == PALETTE.player(0)
    assert _colour(frame, "k10") == PALETTE.player(1)
    assert _colour(frame, "b4") == scale(PALETTE.player(0), 0.25)


@pytest.mark.parametrize("seed", [10])
def test_random_games_played_by_hands_are_recorded_move_for_move(seed: int) -> None:
    moves = plan_game("beeline", {}, seed)
    table = _table()
    _set_out(table)
    _play(table, moves)
    final = Match.from_moves(Beeline(), moves)
    assert table.controller.match.state == final.state
    assert table.controller.state is Phase.GAME_OVER


def test_the_sample_game_played_by_hands_then_a_cleared_board_starts_the_next() -> None:
    table = _table()
    _set_out(table)
    _play(table, SAMPLE)
    c = table.controller
    assert c.state is Phase.GAME_OVER
    assert c.match.state == Match.from_moves(Beeline(), SAMPLE).state
    frame = _frame(table)
    for cell in ("b4", "f6", "m9", "m10", "l10"):  # Black's winning line to Red's start
        assert _colour(frame, cell) == PALETTE.player(0)
    for cell in sorted(table.layout):
        table.hands(f"lift {cell}")
    table.wait(c.timing.clear_hold + 0.1)
    assert c.state is Phase.SETUP and not c.match.actions
    assert c.status()["restore"] == {"b4": "node-black", "l10": "node-red"}
    _set_out(table)
    assert c.state is Phase.AWAITING_MOVE


def test_a_half_done_replacement_or_send_back_shows_what_remains() -> None:
    table = _table()
    _set_out(table)
    _play(table, SAMPLE[:17])
    c = table.controller
    table.hands("lift g5")  # NBxg5/He6nw: the sharp on g5 comes off
    assert c.state is Phase.MOVE_IN_PROGRESS
    verdict = c.board.verdict
    assert isinstance(verdict, InProgress)
    assert verdict.destinations == {"g5", "e6"}  # the NODE's cell and the line's end
    table.hands("place g5 node-black")
    assert c.view().destinations == {"e6"}
    assert c.match.moves_text()[-1] == SAMPLE[16]  # nothing played yet
    table.hands("place e6 black-sharp-nw")
    assert c.match.moves_text()[-1] == "NBxg5/He6nw"
    assert c.state is Phase.AWAITING_MOVE
    # a send-back shows the pieces still to take off
    _play(table, SAMPLE[18:22])
    table.hands("place g9 red-straight-se")  # into Black's RUT: g7 h8 g8 go back
    assert c.state is Phase.MOVE_IN_PROGRESS
    assert c.view().destinations == {"g7", "h8", "g8"}
    frame = render(c.view(), PROFILE, PALETTE, c.since + 0.1)
    assert _colour(frame, "h8") == PALETTE.player(1)  # blinking in the mover's colour
    table.hands("lift g7")
    table.hands("lift h8")
    assert c.view().destinations == {"g8"}
    assert c.match.moves_text()[-1] == SAMPLE[21]
    table.hands("lift g8")
    assert c.match.moves_text()[-1] == "Sg9se"
    assert c.state is Phase.AWAITING_MOVE


def test_a_mark_lifted_and_put_back_is_no_action_and_a_wrong_piece_is_shown() -> None:
    table = _table()
    _set_out(table)
    _play(table, SAMPLE[:5])
    c = table.controller
    table.hands("lift c4")  # a MARK Red may replace: a replacement under way
    assert c.state is Phase.MOVE_IN_PROGRESS
    table.hands("place c4 black-angle-nw")
    assert c.state is Phase.AWAITING_MOVE and len(c.match.actions) == 5
    table.hands("lift b4")  # a starting NODE never leaves the board
    table.wait(c.timing.grace)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["restore"] == {"b4": "node-black"}
    table.hands("place b4 node-black")
    assert c.state is Phase.AWAITING_MOVE and len(c.match.actions) == 5
    table.hands("place k11 red-angle-e")  # Red's angle turned the wrong way
    table.wait(c.timing.grace)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["offending"] == ["k11"]
    assert _colour(_frame(table), "k11") == PALETTE.error
    table.hands("lift k11")
    _play(table, SAMPLE[5:7])
    assert c.match.moves_text() == SAMPLE[:7]


def test_a_wrong_board_says_why_in_the_rules_words() -> None:
    table = _table()
    _set_out(table)
    c = table.controller
    table.hands("place c5 red-sharp-w")  # Red's piece in Black's turn
    table.wait(c.timing.grace + 0.1)
    assert c.state is Phase.WRONG_BOARD
    assert c.status()["why"] == "that is a red MARK, and black is to play"
    table.hands("lift c5")
    table.hands("place c5 black-sharp-e")  # Black's sharp turned the wrong way
    table.wait(c.timing.grace + 0.1)
    assert "leaves by se or w, not e" in c.status()["why"]
    table.hands("lift c5")
    _play(table, SAMPLE[:17])
    # NBxg5/He6nw with the replaced sharp set down the wrong way
    table.hands("lift g5")
    table.hands("place g5 node-black")
    table.hands("place e6 black-sharp-sw")
    table.wait(c.timing.grace + 0.1)
    assert c.state is Phase.WRONG_BOARD
    assert "a sharp on e6 entered from" in c.status()["why"]
    assert c.status()["why"].endswith("leaves by nw or e, not sw")
    table.hands("lift e6")
    table.hands("place e6 black-sharp-nw")
    assert c.match.moves_text()[-1] == "NBxg5/He6nw"
