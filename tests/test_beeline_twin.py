"""Whole Beeline games through the virtual microcontroller on the reference
board: the hands set out the starting NODES, make each replacement as a MARK
lifted, a NODE put in its place and the MARK set at the line's end, lift the
pieces a send-back takes off one by one; a piece lifted and put back, a
reading no piece gives, a takeback, the cable pulled and the microcontroller
reset on the way. The record equals the moves made; the LEDs show each RUT in
its player's colour, and the winning line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from test_twin_games import (
    Incident,
    cable_pulled,
    check_serial_leds,
    check_winner,
    lift_and_put_back,
    reset_mcu,
    taken_back_and_replayed,
    unknown_piece_corrected,
)
from twin_support import STEP, Rig, StillClock, rig

from boardctl.controller.scenes import Frame
from boardctl.controller.store import Store
from boardctl.engines import Match
from boardctl.engines.beeline import Replace
from hardware.profiles import load_profile

PROFILE = load_profile("beeline")
SAMPLE: list[str] = json.loads(
    (Path(__file__).parent / "records" / "beeline" / "sample_game.json").read_text()
)["moves"]


def make(r: Rig, match: Match[Any, Any], text: str, *, lift_first: bool) -> None:
    """One action as a person makes it, on the twin."""
    engine = match.engine
    action = engine.parse_action(text)
    after = engine.layout(engine.apply(match.state, action))
    if isinstance(action, Replace):
        r.hands.lift(action.cell)
        puts = [action.cell, action.to] if lift_first else [action.to, action.cell]
    else:
        puts = [action.cell]
    for cell in puts:
        r.hands.place(cell, after[cell])
    for cell in sorted(s for s in r.hands.layout if s not in after):
        r.hands.lift(cell)


def check_ruts_lit(r: Rig, match: Match[Any, Any]) -> None:
    """Each player's RUT glows in their colour (but where the last action took
    pieces off, which shows soft white)."""
    engine = match.engine
    black, red = engine.player_sites(match.state)
    before, after = engine.layout(match.states[-2]), engine.layout(match.state)
    last = {s for s in before if s not in after}
    want = {s: r.palette.player(0) for s in black.ahead - red.ahead - last}
    want |= {s: r.palette.player(1) for s in red.ahead - last}

    def lit(frame: Frame) -> bool:
        return all(r.colour(frame, s) == c for s, c in want.items())

    r.wait_frame(lit, f"RUTs lit: {sorted(want)}")


def play(r: Rig, moves: list[str], incidents: dict[int, list[Incident]]) -> list[str]:
    engine = r.controller.engine
    start = engine.layout(engine.initial())
    for cell in sorted(start):
        r.hands.place(cell, start[cell])
    r.wait_phase("awaiting_move", moves=0)
    match: Match[Any, Any] = Match(engine)
    for n, text in enumerate(moves):
        done = False
        for incident in incidents.get(n, []):
            done = incident(r, match, text) or done
        if not done:
            make(r, match, text, lift_first=n % 2 == 0)
            match.play_text(text)
        status = r.wait_phase("awaiting_move", "game_over", moves=n + 1)
        assert status["moves"] == moves[: n + 1]
        if status["phase"] == "awaiting_move" and n % 5 == 2:
            check_ruts_lit(r, match)
    return moves


def test_the_sample_game_through_the_virtual_microcontroller(tmp_path: Path) -> None:
    incidents: dict[int, list[Incident]] = {
        3: [lift_and_put_back],
        4: [unknown_piece_corrected],
        8: [taken_back_and_replayed],
        12: [cable_pulled],
        19: [reset_mcu],
        23: [taken_back_and_replayed],  # the send-back of play 6 undone and made again
    }
    with (
        Store(tmp_path / "g.db") as store,
        rig(PROFILE, store, {}, serial_leds=True, clock=StillClock(STEP)) as r,
    ):
        made = play(r, SAMPLE, incidents)
        r.wait_phase("game_over")
        check_winner(r, Match.from_moves(r.controller.engine, SAMPLE))
        record = store.record_of()
        assert record["moves"] == made
        assert record["result"]["winner"] == 0
        check_serial_leds(r)
