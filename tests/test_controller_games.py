"""Whole games played as hands would, through the controller and its loop:
the record at the end equals the moves made, and the LEDs say the right thing
at the moments that matter."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest
from controller_support import Table, is_track, profile_for, through_track

from boardctl.controller.control import ControlServer, request
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.controller.scenes import Frame
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.engines import Match, create
from boardctl.sensing import LinkDown, LinkUp, SensorSnapshot
from boardctl.sim import hands


def _hand_changes(table: Table, engine: Any, state: Any, action: Any) -> list[hands.Change]:
    track = through_track(engine, state, action)
    if track is not None:
        piece = engine.layout(engine.apply(state, action))[track.path[0]]
        return hands.insert(engine.board(), table.layout, track.name, piece)
    after = table.profile.projected_layout(engine.layout(engine.apply(state, action)))
    lifts = [hands.Change(s, after.get(s)) for s in sorted(table.layout) if s not in after]
    puts = [hands.Change(s, p) for s, p in sorted(after.items()) if table.layout.get(s) != p]
    return lifts + puts


def _play(table: Table, seed: int, limit: int = 200, mistakes: bool = True) -> list[str]:
    """Random legal moves made by hands, with a wrong placement corrected and a
    piece lifted and put back now and then; returns the moves made."""
    rng = random.Random(seed)
    c = table.controller
    made: list[str] = []
    start = len(c.match.actions)
    for n in range(limit):
        if c.match.outcome().over:
            break
        state = c.match.state
        engine = c.engine
        if mistakes and n % 7 == 3:
            reachable = {s for o in c.reconciler.expect(state).options for s in o.changed}
            free = [
                s
                for s in engine.sites()
                if s not in table.layout and not is_track(engine.board(), s) and s not in reachable
            ]
            if not free:
                continue
            site = rng.choice(free)
            wrong = next(iter(table.profile.codes.values()))
            table.hands(f"place {site} {wrong}")
            table.wait(c.timing.grace)
            assert c.state is Phase.WRONG_BOARD
            table.hands(f"lift {site}")
            assert c.match.state == state
        if mistakes and n % 5 == 2 and table.layout:
            site = rng.choice(sorted(table.layout))
            piece = table.layout[site]
            table.hands(f"lift {site}")
            table.apply([hands.Change(site, piece)])
            table.settle()
            assert c.match.state == state
        action = rng.choice(list(engine.legal_actions(state)))
        made.append(engine.format_action(action))
        table.apply(_hand_changes(table, engine, state, action))
        table.settle()
        assert c.match.moves_text()[start:] == made, (made, c.verdict)
    return made


GAMES = [
    ("shiftago", {"players": 2, "variant": "express"}, False),
    ("shiftago", {"players": 4, "variant": "express"}, True),
    ("shiftago", {"players": 2, "variant": "expert"}, True),
    ("shiftago", {"players": 4, "variant": "expert"}, False),
    ("duploline", {}, False),
]


@pytest.mark.parametrize(("game", "options", "presence"), GAMES)
def test_a_whole_game_played_by_hands_is_recorded_move_for_move(
    tmp_path: Path, game: str, options: dict[str, Any], presence: bool
) -> None:
    engine = create(game, options)
    with Store(tmp_path / "g.db") as store:
        controller = Controller(
            profile_for(engine, presence=presence), options=options, recorder=store
        )
        table = Table(controller)
        table.settle()
        made = _play(table, seed=len(game) + options.get("players", 2))
        final = Match.from_moves(engine, made)
        assert controller.match.state == final.state
        if final.outcome().over:
            assert controller.state is Phase.GAME_OVER
            assert store.record_of()["moves"] == made


def test_link_down_mid_game_and_back() -> None:
    engine = create("shiftago", players=2, variant="expert")
    table = Table(Controller(profile_for(engine), options={"players": 2, "variant": "expert"}))
    c = table.controller
    table.settle()
    _play(table, seed=3, limit=6, mistakes=False)
    c.feed(LinkDown("cable pulled"), table.now)
    assert c.state is Phase.FAULT
    c.feed(LinkUp("cable back"), table.now + 1)
    c.feed(SensorSnapshot(tuple(c.values)), table.now + 1)
    table.now += 1
    table.settle()
    assert c.state is Phase.AWAITING_MOVE
    made = _play(table, seed=4, limit=6, mistakes=False)
    assert c.match.moves_text()[-6:] == made


class Strip:
    """A recording LED output."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self.shown = threading.Event()

    def show(self, frame: Frame) -> None:
        self.frames.append(frame)
        self.shown.set()


def test_the_loop_serves_the_control_socket_and_shows_frames(tmp_path: Path) -> None:
    engine = create("shiftago")
    profile = profile_for(engine)
    strip = Strip()
    pings = threading.Event()
    with Store(tmp_path / "g.db") as store:
        loop = Loop(Controller(profile, recorder=store), strip, store=store, watchdog=pings.set)
        runner = threading.Thread(target=loop.run)
        runner.start()
        try:
            loop.emit(LinkUp("test"))
            loop.emit(SensorSnapshot((0,) * profile.channel_count))
            with ControlServer(tmp_path / "control.sock", loop.submit) as server:
                assert oct(server.path.stat().st_mode & 0o777) == "0o600"
                assert pings.wait(5)
                reply = request(server.path, {"cmd": "status"})
                assert reply["ok"] and reply["game"] == "shiftago"
                d4 = profile.site("d4")
                assert d4.channel is not None
                from boardctl.sensing import SensorChange

                loop.emit(SensorChange(d4.channel, 2))
                reply = request(server.path, {"cmd": "status"})
                assert reply["phase"] in ("move_in_progress", "wrong_board")
                bad = request(server.path, {"cmd": "new", "game": "duploline"})
                assert not bad["ok"] and "plays shiftago" in bad["error"]
                assert request(server.path, {"cmd": "games"})["games"][0]["status"] == "playing"
                assert not request(server.path, {"cmd": "undo"})["ok"]
        finally:
            loop.stop()
            runner.join(5)
    assert strip.frames[-1] == tuple((0, 0, 0) for _ in range(profile.leds.count))
    assert len(set(strip.frames)) >= 3
