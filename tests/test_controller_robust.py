"""Nothing an operator, a button or a full disk does stops the controller, and a
finished game is never taken back by clearing the board."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from controller_support import Table, profile_for

from boardctl.controller.control import ControlServer, request
from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.controller.store import Store, StoreError
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import ButtonPress, LinkUp, SensorSnapshot
from boardctl.sim import hands


class _Strip:
    def __init__(self) -> None:
        self.frames: list[Any] = []

    def show(self, frame: Any) -> None:
        self.frames.append(frame)


def test_undo_and_new_buttons_never_stop_the_loop() -> None:
    engine = create("shiftago")
    profile = profile_for(engine)
    loop = Loop(Controller(profile), _Strip())
    loop.start()
    loop.emit(ButtonPress("undo"))  # nothing to undo, sensors not read yet
    loop.emit(ButtonPress("new"))  # no game can start before the sensors answer
    loop.emit(ButtonPress("shuffle"))  # a button the profile should not have
    assert loop.turn(block=False)
    loop.emit(LinkUp("test"))
    loop.emit(SensorSnapshot((0,) * profile.channel_count))
    loop.emit(ButtonPress("undo"))
    assert loop.turn(block=False)
    assert loop.controller.state is Phase.AWAITING_MOVE


def test_a_malformed_request_gets_an_error_and_the_loop_goes_on(tmp_path: Path) -> None:
    engine = create("shiftago")
    profile = profile_for(engine)
    with Store(tmp_path / "g.db") as store:
        loop = Loop(Controller(profile, recorder=store), _Strip(), store=store)
        runner = threading.Thread(target=loop.run)
        runner.start()
        try:
            with ControlServer(tmp_path / "c.sock", loop.submit) as server:
                bad = request(server.path, {"cmd": "export", "id": [1]})
                assert not bad["ok"] and "'id' must be a whole number" in bad["error"]
                assert not request(server.path, {"cmd": "games", "limit": "all"})["ok"]
                assert request(server.path, {"cmd": "status"})["ok"]
        finally:
            loop.stop()
            runner.join(5)
        assert not runner.is_alive()


class _FullDisk:
    """A recorder whose writes fail, as SQLite's do on a full or read-only card."""

    def __init__(self) -> None:
        self.fail = True
        self.moves: list[str] = []

    def begin(self, game: str, options: Any, seed: int | None = None, seats: Any = None) -> None:
        pass

    def record(self, move: str, public: str | None = None, excluded: object = None) -> None:
        if self.fail:
            raise StoreError("cannot write to games.db: database or disk is full")
        self.moves.append(move)

    def asked(self, ply: int, tried: tuple[str, ...]) -> None:
        pass

    def undo(self, steps: int, amended: bool = False) -> None:
        pass

    def finish(self, result: Any) -> None:
        pass


def test_a_move_that_cannot_be_saved_is_a_fault_not_a_crash_and_is_retried() -> None:
    engine = create("shiftago")
    disk = _FullDisk()
    controller = Controller(profile_for(engine), recorder=disk)
    loop = Loop(controller, _Strip(), clock=lambda: table.now)
    table = Table(controller)
    table.apply(hands.insert(controller.match.engine.board(), table.layout, "W1", "p0"))
    table.now += controller.timing.settle + 0.01
    loop._guarded(controller.tick, table.now)  # the loop's own step when time passes
    assert controller.state is Phase.FAULT
    assert "disk is full" in controller.status()["fault"]
    assert controller.match.actions == [], "the engine never plays what was not saved"
    disk.fail = False
    controller.feed(SensorSnapshot(tuple(controller.values)), table.now)  # the audit
    table.settle()
    assert disk.moves and controller.match.moves_text() == disk.moves


def test_clearing_a_finished_board_starts_the_next_game_and_keeps_the_result(
    tmp_path: Path,
) -> None:
    engine = create("shiftago")
    with Store(tmp_path / "g.db") as store:
        controller = Controller(profile_for(engine), recorder=store)
        table = Table(controller)
        for track in ("Sa", "Sg", "Sb", "Sf", "Sc", "Ng", "Sd", "Nb"):
            table.hands(f"insert {track}", f"p{controller.match.to_move()}")
        table.hands("insert Se", "p0")  # a1..e1: player 0 wins
        assert controller.state is Phase.GAME_OVER
        for site in ("e1", "d1", "c1"):  # clearing starts with the winning line
            table.hands(f"lift {site}")
            table.wait(controller.timing.takeback_hold + 0.5)
            assert controller.state is Phase.GAME_OVER
        for site in sorted(table.layout):
            table.hands(f"lift {site}")
        table.wait(controller.timing.clear_hold + 0.5)
        assert controller.state is Phase.AWAITING_MOVE and not controller.match.actions
        finished = store.games()[1]
        assert finished["status"] == "finished"
        assert store.record_of(finished["id"])["result"]["winner"] == 0


def test_every_finished_game_is_kept_as_a_record_the_rules_cli_replays(
    tmp_path: Path, capsys: Any
) -> None:
    import json

    from boardctl.cli.main import main

    engine = create("shiftago")
    with Store(tmp_path / "g.db", records_dir=tmp_path / "records") as store:
        controller = Controller(profile_for(engine), recorder=store)
        table = Table(controller)
        for track in ("Sa", "Sg", "Sb", "Sf", "Sc", "Ng", "Sd", "Nb", "Se"):
            table.hands(f"insert {track}", f"p{controller.match.to_move()}")
        assert controller.state is Phase.GAME_OVER
    (path,) = (tmp_path / "records").glob("*.json")
    assert path.name == "00001-shiftago.json"
    assert main(["rules", "replay", str(path), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert (summary["status"], summary["winner"], summary["moves_applied"]) == ("won", 0, 9)
    record = json.loads(path.read_text())
    assert record["started"] <= record["ended"]


def test_the_mode_button_switches_shiftago_between_express_and_expert() -> None:
    engine = create("shiftago", players=3)
    controller = Controller(profile_for(engine), options={"players": 3})
    table = Table(controller)
    table.hands("insert W1", "p0")
    # a game under way ends only at a second press, the first saying what it will do
    controller.feed(ButtonPress("mode"), table.now)
    assert controller.match.moves_text() == ["W1"]
    words = controller.status()["confirm"]["words"]
    assert words == (
        "Press mode again within 5 seconds to end this game and start a game of Shiftago expert."
    )
    controller.feed(ButtonPress("mode"), table.now + 1.0)
    assert controller.engine.options_json()["variant"] == "expert"
    assert controller.engine.options_json()["players"] == 3
    assert "confirm" not in controller.status()
    # no move yet: nothing to end, one press
    controller.feed(ButtonPress("mode"), table.now + 1.5)
    assert controller.engine.options_json()["variant"] == "express"


def test_the_mode_button_on_a_game_without_variants_changes_nothing() -> None:
    engine = create("duploline")
    controller = Controller(profile_for(engine))
    table = Table(controller)
    table.hands("place d4 white-disc")
    controller.feed(ButtonPress("mode"), table.now)
    assert controller.match.moves_text() == ["D+d4"]


def test_the_new_button_mid_game_asks_and_a_second_press_in_time_ends_it() -> None:
    from boardctl.controller.confirming import CONFIRM_SECONDS
    from boardctl.controller.scenes import Palette, render, scale

    engine = create("shiftago")
    profile = profile_for(engine)
    controller = Controller(profile)
    table = Table(controller)
    table.hands("insert W1", "p0")
    table.hands("insert E1", "p1")
    controller.feed(ButtonPress("new"), table.now)
    status = controller.status()
    assert status["moves"] == ["W1", "E1"], "one press ends nothing"
    assert status["confirm"] == {
        "button": "new",
        "words": "Press new game again within 5 seconds to end this game and start a new one.",
    }
    # the LEDs count the time for the second press down: every site white, then fewer
    white = scale(Palette().highlight, 0.6)
    lit = [
        sum(frame[s.leds[0]] == white for s in profile.sites if s.leds)
        for frame in (
            render(controller.view(), profile, Palette(), table.now + t) for t in (0.0, 4.0)
        )
    ]
    assert lit[0] == sum(1 for s in profile.sites if s.leds) > lit[1] > 0
    # too late: the question is let go by itself, the game goes on
    table.wait(CONFIRM_SECONDS + 0.1)
    assert "confirm" not in controller.status()
    controller.feed(ButtonPress("new"), table.now)
    assert controller.match.moves_text() == ["W1", "E1"]
    # another button lets the question go: a press of new after it asks again
    controller.feed(ButtonPress("mode"), table.now + 0.5)
    assert controller.status()["confirm"]["button"] == "mode"
    controller.feed(ButtonPress("new"), table.now + 1.0)
    assert controller.match.moves_text() == ["W1", "E1"]
    controller.feed(ButtonPress("new"), table.now + 2.0)
    assert controller.match.moves_text() == []
    assert "confirm" not in controller.status()
