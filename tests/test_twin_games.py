"""Whole games played through the simulated twins of the reference boards, as
hands would: marbles pushed in with their runs sliding, pieces lifted and put
back, a wrong placement corrected, a takeback, a scoring choice made by removing
marbles, the cable pulled and the microcontroller reset. The record at the end
equals the moves made, and the LEDs say the right thing at the moments that
matter (the frames are checked as the scenes drew them)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from twin_support import (
    STEP,
    Rig,
    SerialTwin,
    StillClock,
    canonical,
    do_move,
    plan_game,
    player_colour,
    rig,
    wait_for,
)

from boardctl.board import Reports
from boardctl.config import load
from boardctl.controller.scenes import Frame
from boardctl.controller.store import Store
from boardctl.daemon.runner import timing_of
from boardctl.engines import Match, create
from boardctl.sim.hands import Change
from hardware.leds.base import FrameProcessor, wire_order
from hardware.profiles import load_profile

#: something hands do before the next move (its text given); True if it made that move
Incident = Callable[[Rig, Match[Any, Any], str], bool]


def gates(r: Rig) -> bool:
    return any(s.reports is Reports.PULSE for s in r.profile.sites)


def play(r: Rig, moves: list[str], incidents: dict[int, list[Incident]]) -> list[str]:
    """Play ``moves`` with the hands; returns the moves as the board records them."""
    engine = r.controller.engine
    match: Match[Any, Any] = Match(engine)
    made: list[str] = []
    for n, text in enumerate(moves):
        recorded = text if gates(r) else canonical(engine, match.state, text)
        done = False
        for incident in incidents.get(n, []):
            done = incident(r, match, text) or done
        if not done:
            if text.startswith("x:"):
                check_scoring_lit(r, match, text)
            do_move(r.hands, engine, match.state, text)
            match.play_text(text)
        made.append(recorded)
        status = r.wait_phase("awaiting_move", "choosing", "game_over", moves=n + 1)
        assert status["moves"] == made
        if status["phase"] == "awaiting_move" and n % 4 == 1:
            check_legal_lit(r, match, recorded)
    return made


# -- what the LEDs must show -----------------------------------------------------------


def named_sites(r: Rig, text: str) -> set[str]:
    names = {s.name for s in r.profile.sites}
    return {t for t in re.findall(r"[A-Za-z0-9]+", text) if t in names}


def check_legal_lit(r: Rig, match: Match[Any, Any], recorded: str) -> None:
    """Waiting for a move: every track or cell where the mover may act glows in
    their colour (the last move's sites, soft white, excepted)."""
    engine = match.engine
    mover = match.to_move()
    assert mover is not None
    last = named_sites(r, recorded)
    before = engine.layout(match.states[-2])
    after = engine.layout(match.state)
    last |= {s for s in before.keys() | after.keys() if before.get(s) != after.get(s)}
    legal = {s for a in match.legal_actions() for s in named_sites(r, engine.format_action(a))}
    want = player_colour(r.palette, mover, 0.6)
    sites = sorted(legal - last)
    assert sites

    def lit(frame: Frame) -> bool:
        return all(r.colour(frame, s) == want for s in sites)

    r.wait(lambda: lit(r.frames.last), f"legal sites {sites} lit for player {mover}")


def check_scoring_lit(r: Rig, match: Match[Any, Any], text: str) -> None:
    """Choosing a score: the cells of the lines that may be scored blink in the
    mover's colour."""
    assert match.expects() == "score"
    mover = match.to_move()
    assert mover is not None
    line = sorted(named_sites(r, text))
    full = player_colour(r.palette, mover)
    r.wait_frame(lambda f: all(r.colour(f, s) == full for s in line), f"line {line} lit to score")


def check_winner(r: Rig, match: Match[Any, Any]) -> None:
    """Game over: the winner's colour, the winning line (or else the last
    move) bright, no other player's."""
    outcome = match.outcome()
    if outcome.winner is None:
        return
    colour = player_colour(r.palette, outcome.winner)
    text = match.engine.format_action(match.actions[-1])
    sites = sorted(match.engine.winning_sites(match.state) or named_sites(r, text))
    others = {r.palette.player(p) for p in range(match.engine.players)} - {colour}
    frame = r.wait_frame(
        lambda f: all(r.colour(f, s) == colour for s in sites), f"winner's colour at {sites}"
    )
    assert not others & set(frame)


def check_serial_leds(r: Rig) -> None:
    """The microcontroller shows what the scene drew (processed, in wire order)."""
    assert r.vmcu is not None
    chain = r.profile.leds
    process = FrameProcessor(chain)

    def same() -> bool:
        want = bytes(c for px in wire_order(process(r.frames.last), chain.order) for c in px)
        return bool(r.vmcu and r.vmcu.led_frames) and r.vmcu.led_frames[-1] == want

    wait_for(same, what="the microcontroller to show the last frame")


# -- incidents ---------------------------------------------------------------------------


def lift_and_put_back(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """A hand picks a piece up, hesitates, and puts it back: nothing is played."""
    site = sorted(r.hands.layout)[len(match.actions) % len(r.hands.layout)]
    piece = r.hands.lift(site)
    r.wait_status(lambda s: s["verdict"] != "waiting", f"{site} seen lifted")
    r.hands.place(site, piece)
    status = r.wait_phase("awaiting_move", moves=len(match.actions))
    assert status["verdict"] == "waiting"
    return False


def unreachable_cell(r: Rig, match: Match[Any, Any]) -> str:
    """An empty cell no legal action changes."""
    engine = match.engine
    reach: set[str] = set()
    before = engine.layout(match.state)
    for action in match.legal_actions():
        after = engine.layout(engine.apply(match.state, action))
        reach |= {s for s in before.keys() | after.keys() if before.get(s) != after.get(s)}
    cells = [s.name for s in r.profile.sites if s.kind == "cell"]
    free = [c for c in cells if c not in before and c not in reach]
    assert free, "every cell is within reach of a legal action"
    return free[len(free) // 2]


def misplaced_and_corrected(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """A marble carried to a cell no move reaches: the cell blinks red, the one
    it came from shows amber, and putting it back makes all well."""
    target = unreachable_cell(r, match)
    source = sorted(r.hands.layout)[0]
    piece = r.hands.lift(source)
    r.hands.place(target, piece)
    status = r.wait_phase("wrong_board", moves=len(match.actions))
    assert status["offending"] == [target]
    assert status["restore"] == {source: r.profile.project(source, piece)}
    r.wait_frame(
        lambda f: (
            r.colour(f, target) == r.palette.error and r.colour(f, source) == r.palette.restore
        ),
        "red where it is, amber where it belongs",
    )
    r.hands.lift(target)
    r.hands.place(source, piece)
    r.wait_phase("awaiting_move", moves=len(match.actions))
    return False


def unknown_piece_corrected(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """A piece the game does not use (a black disc on the DuploLine board)."""
    target = _free_cell(r)
    channel = r.profile.site(target).channel
    assert channel is not None
    unknown = next(v for v in range(1, 64) if v not in r.profile.codes)
    r.hands.put_raw(target, unknown)
    status = r.wait_phase("wrong_board", moves=len(match.actions))
    assert status["offending"] == [target]
    r.wait_frame(lambda f: r.colour(f, target) == r.palette.error, f"{target} blinking red")
    r.hands.put_raw(target, 0)
    r.wait_phase("awaiting_move", moves=len(match.actions))
    return False


def _free_cell(r: Rig) -> str:
    cells = [s.name for s in r.profile.sites if s.kind == "cell" and s.name not in r.hands.layout]
    return cells[len(cells) // 2]


def taken_back_and_replayed(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """The board is put back as it was before the last move and held there: the
    move is taken back (the sites that go back blink meanwhile); then it is made
    again."""
    n = len(match.actions)
    text = match.engine.format_action(match.actions[-1])
    start, drawn = r.frames.count(), r.phases.count()
    match.undo()
    r.hands.arrange(match.engine.layout(match.state))
    # the offer may last a single turn when the loop is held up: look at
    # what the LEDs showed, not at a status read at some moment
    r.wait(lambda: "takeback_offered" in r.phases.since(drawn), "the takeback offered")
    r.wait_frame(
        lambda f: r.palette.restore in f or r.palette.highlight in f, "takeback sites", start
    )
    r.wait_phase("awaiting_move", "choosing", moves=n - 1)
    do_move(r.hands, match.engine, match.state, text)
    match.play_text(text)
    r.wait_phase("awaiting_move", "choosing", moves=n)
    return False


def reddish(r: Rig, px: tuple[int, int, int]) -> bool:
    """A dimmed shade of the error colour."""
    red, green, blue = r.palette.error
    return (
        px[0] > 0 and abs(px[1] - px[0] * green / red) <= 1 and abs(px[2] - px[0] * blue / red) <= 1
    )


def cable_pulled(r: Rig, match: Match[Any, Any], text: str) -> bool:
    """The USB cable is pulled: the LEDs pulse red; the next move is made while
    it is out, and read once the cable is back and the board has booted."""
    assert r.vmcu is not None and isinstance(r.hands.twin, SerialTwin)
    n = len(match.actions)
    r.vmcu.unplug()
    r.wait_phase("fault")
    cells = [s.name for s in r.profile.sites if s.kind == "cell"]
    r.wait_frame(lambda f: all(reddish(r, r.colour(f, c)) for c in cells), "the cells pulsing red")
    r.hands.twin.unplugged = True
    do_move(r.hands, match.engine, match.state, text)
    match.play_text(text)
    r.hands.twin.unplugged = False
    r.vmcu.replug()
    r.wait_phase("awaiting_move", "choosing", "game_over", moves=n + 1)
    return True


def reset_mcu(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """The microcontroller resets (a brown-out): the host resyncs, play goes on."""
    assert r.vmcu is not None
    boots = len(r.vmcu.boot_ids)
    snapshots = r.seen.snapshots
    r.vmcu.reset()
    assert len(r.vmcu.boot_ids) == boots + 1
    wait_for(lambda: r.seen.snapshots > snapshots, what="a snapshot after the reset")
    r.wait_phase("awaiting_move", moves=len(match.actions))
    return False


# -- the games ---------------------------------------------------------------------------

SHIFTAGO = [
    pytest.param("shiftago-colour", 2, "express", 3, True, id="colour-express-2p-serial-leds"),
    pytest.param("shiftago-colour", 4, "expert", 3, False, id="colour-expert-4p"),
    pytest.param("shiftago-presence", 4, "express", 27, False, id="presence-express-4p"),
    pytest.param("shiftago-presence", 2, "expert", 9, False, id="presence-expert-2p"),
]


@pytest.mark.parametrize(("board", "players", "variant", "seed", "serial_leds"), SHIFTAGO)
def test_a_whole_shiftago_game_through_the_twin(
    tmp_path: Path, board: str, players: int, variant: str, seed: int, serial_leds: bool
) -> None:
    profile = load_profile(board)
    options: dict[str, Any] = {"players": players, "variant": variant}
    moves = plan_game("shiftago", options, seed)
    scores = [i for i, m in enumerate(moves) if m.startswith("x:")]
    incidents: dict[int, list[Incident]] = {
        3: [lift_and_put_back],
        4: [misplaced_and_corrected],
        6: [taken_back_and_replayed],
    }
    if profile.sensing == "serial":
        incidents.setdefault(8, []).append(cable_pulled)
        incidents.setdefault(10, []).append(reset_mcu)
    if scores:
        incidents.setdefault(scores[0] + 1, []).append(taken_back_and_replayed)
    with (
        Store(tmp_path / "g.db") as store,
        rig(profile, store, options, serial_leds=serial_leds, clock=StillClock(STEP)) as r,
    ):
        made = play(r, moves, incidents)
        r.wait_phase("game_over")
        match = Match.from_moves(r.controller.engine, moves)
        check_winner(r, match)
        record = store.record_of()
        assert record["moves"] == made
        assert record["result"]["winner"] == match.outcome().winner
        if r.vmcu is not None and serial_leds:
            check_serial_leds(r)
            r.stop()
            vmcu = r.vmcu
            assert vmcu.wait_until(lambda: not any(vmcu.led_frames[-1]), 5), "LEDs left on"
    assert r.hands.readings > len(moves)


def test_a_whole_duploline_game_through_the_virtual_microcontroller(tmp_path: Path) -> None:
    profile = load_profile("duploline")
    moves = plan_game("duploline", {}, seed=7)
    incidents: dict[int, list[Incident]] = {
        3: [lift_and_put_back],
        4: [unknown_piece_corrected],
        6: [taken_back_and_replayed],
        9: [cable_pulled],
        12: [reset_mcu],
    }
    with Store(tmp_path / "g.db") as store, rig(profile, store, {}, clock=StillClock(STEP)) as r:
        made = play(r, moves, incidents)
        r.wait_phase("game_over")
        check_winner(r, Match.from_moves(r.controller.engine, moves))
        assert store.record_of()["moves"] == made == moves
    assert any(m[0] in "DR" and "-" in m for m in moves), "no piece was carried"


def test_a_disc_slid_on_in_the_amend_window_is_recorded_where_the_hand_let_go(
    tmp_path: Path,
) -> None:
    """The daemon's own times (an amend window) through the virtual
    microcontroller: a disc set on a2, shown at once, and slid on to b3 is
    recorded on b3, with no wrong board and no takeback offered."""
    profile = load_profile("duploline")
    engine = create("duploline")
    timing = timing_of(load(None))
    assert timing.amend > timing.settle, "the daemon's defaults have an amend window"
    disc = engine.layout(engine.apply(engine.initial(), engine.parse_action("D+a2")))["a2"]
    clock = StillClock()

    def hand(site: str, piece: str | None) -> None:
        channel = profile.site(site).channel
        assert channel is not None
        r.hands.apply([Change(site, piece)])
        value = r.hands.value(site, piece)
        wait_for(lambda: r.controller.values[channel] == value, what=f"{site} read by the loop")

    with (
        Store(tmp_path / "g.db") as store,
        rig(profile, store, {}, timing=timing, clock=clock) as r,
    ):
        drawn = r.phases.count()
        hand("a2", disc)
        clock.advance(timing.settle + 0.01)  # still for the settle time: shown at once
        r.wait_status(lambda s: s["moves"] == ["D+a2"], "D+a2 shown")
        game = store.games()[0]["id"]
        assert store.moves(game) == ["D+a2"]
        clock.advance(0.01)  # within the window the hand slides the disc on
        hand("a2", None)
        hand("b3", disc)
        clock.advance(timing.settle + 0.01)
        r.wait_status(lambda s: s["moves"] == ["D+b3"], "D+a2 amended to D+b3")
        assert store.moves(game) == ["D+b3"]
        assert store.amended(game) == {0: ("D+a2",)}
        clock.advance(timing.grace + timing.takeback_hold)
        status = r.wait_phase("awaiting_move", moves=1)
        assert status["moves"] == ["D+b3"]
        phases = r.phases.since(drawn)
        assert "wrong_board" not in phases and "takeback_offered" not in phases, phases


# -- the Bidirectional Line Game ---------------------------------------------------------

STEADY = ("awaiting_move", "choosing", "game_over")


def stick_of(match: Match[Any, Any], text: str) -> tuple[str, str]:
    """The segment a move lays its stick on, and the stick's colour."""
    action = match.engine.parse_action(text)
    (segment,) = match.engine.touches(match.state, action)
    return segment, action.colour.value


def lay_sticks(r: Rig, moves: list[str], incidents: dict[int, list[Incident]]) -> None:
    """Lay the sticks of ``moves`` one by one. A stick the board cannot tell
    from another (the first one; on a presence board one that either end could
    have drawn) leaves a choice open: the next stick decides it where it can,
    else the choice is made as an operator would, with ``choose``."""
    match: Match[Any, Any] = Match(r.controller.engine)
    for n, text in enumerate(moves):
        for incident in incidents.get(n, []):
            incident(r, match, text)
        segment, colour = stick_of(match, text)
        r.hands.place(segment, colour)
        match.play_text(text)
        while True:
            status = r.wait_status(
                lambda s, n=n: (
                    s["phase"] in STEADY and (len(s["moves"]) == n + 1 or s["phase"] == "choosing")
                ),
                f"stick {n + 1} ({text}) read",
            )
            recorded = len(status["moves"])
            assert status["moves"] == moves[:recorded]
            if recorded == n + 1 or (recorded == n and n + 1 < len(moves)):
                break  # recorded, or the next stick may tell
            assert moves[recorded] in status["choices"], status
            assert r.loop.submit({"cmd": "choose", "option": moves[recorded]})["ok"]
            r.wait_status(lambda s, k=recorded: len(s["moves"]) > k, "the choice taken")
        if n == 0:
            check_first_stick_offered(r, segment)
        if status["phase"] == "awaiting_move" and n % 3 == 2:
            check_ends_lit(r, match, segment)


def check_first_stick_offered(r: Rig, segment: str) -> None:
    """The first stick lies either way: its segment and both its points blink in
    amber's colour until blue's stick shows where it started."""
    status = r.status()
    if status["phase"] != "choosing":
        return  # the second stick was read already
    lit = [segment, *segment.split("-")]
    full = player_colour(r.palette, 0)
    r.wait_frame(lambda f: all(r.colour(f, s) == full for s in lit), f"{lit} offered")


def check_ends_lit(r: Rig, match: Match[Any, Any], last: str) -> None:
    """Waiting for a stick: the A end in amber's colour and the B end in
    blue's, the sticks either end may take in the mover's colour, the last
    stick soft white."""
    state = match.state
    points = match.engine.grid.points
    mover = match.to_move()
    assert mover is not None
    ends = {points[state.end_a]: 0, points[state.end_b]: 1}
    if state.end_a == state.end_b:
        ends = {points[state.end_a]: mover}
    extensions = {stick_of(match, match.engine.format_action(a))[0] for a in match.legal_actions()}
    glow = player_colour(r.palette, mover, 0.6)

    def lit(f: Frame) -> bool:
        return (
            all(r.colour(f, p) == player_colour(r.palette, seat) for p, seat in ends.items())
            and all(r.colour(f, s) == glow for s in extensions)
            and r.colour(f, last) == player_colour(r.palette, None, 0.5)
        )

    r.wait(lambda: lit(r.frames.last), f"ends {ends} and sticks {sorted(extensions)} lit")


def far_from_the_ends(r: Rig, match: Match[Any, Any]) -> str:
    """An empty segment that touches neither end."""
    state = match.state
    grid = match.engine.grid
    ends = {grid.points[state.end_a], grid.points[state.end_b]}
    free = [
        s.name
        for s in r.profile.sites
        if s.kind == "edge" and s.name not in r.hands.layout and not ends & set(s.name.split("-"))
    ]
    return free[len(free) // 3]


def stray_stick(r: Rig, match: Match[Any, Any], _next: str) -> bool:
    """A stick laid far from both ends blinks magenta, is never recorded, and
    taking it off makes all well."""
    site = far_from_the_ends(r, match)
    r.hands.place(site, "A")
    status = r.wait_phase("wrong_board", moves=len(match.actions))
    assert status["offending"] == [site]
    r.wait_frame(lambda f: r.colour(f, site) == r.palette.error, f"{site} blinking red")
    r.hands.lift(site)
    r.wait_phase("awaiting_move", moves=len(match.actions))
    return False


def wrong_colour(r: Rig, match: Match[Any, Any], text: str) -> bool:
    """The right segment, the other colour (a board that reads colours): it
    blinks and is never recorded until it is swapped."""
    segment, colour = stick_of(match, text)
    r.hands.place(segment, "B" if colour == "A" else "A")
    status = r.wait_phase("wrong_board", moves=len(match.actions))
    assert status["offending"] == [segment]
    r.hands.lift(segment)
    r.wait_phase("awaiting_move", moves=len(match.actions))
    return False


BIDILINE = [
    pytest.param("bidiline", 2, id="colour"),
    # both ends meet at d3, and the next two sticks cannot tell their colour: chosen
    pytest.param("bidiline-presence", 7, id="presence-meeting-ends"),
    # the last stick could be either colour: the game ends once it is chosen
    pytest.param("bidiline-presence", 75, id="presence-last-stick-chosen"),
]


@pytest.mark.parametrize(("board", "seed"), BIDILINE)
def test_a_whole_bidiline_game_through_the_twin(tmp_path: Path, board: str, seed: int) -> None:
    profile = load_profile(board)
    moves = plan_game("bidiline", {}, seed)
    incidents: dict[int, list[Incident]] = {
        6: [stray_stick],
        7: [lift_and_put_back],
        9: [taken_back_and_replayed],
    }
    if profile.codes:
        incidents[8] = [wrong_colour]
    with Store(tmp_path / "g.db") as store, rig(profile, store, {}, clock=StillClock(STEP)) as r:
        lay_sticks(r, moves, incidents)
        r.wait_phase("game_over")
        match = Match.from_moves(r.controller.engine, moves)
        check_winner(r, match)
        record = store.record_of()
        assert record["moves"] == moves
        assert record["result"]["winner"] == match.outcome().winner
