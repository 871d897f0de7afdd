"""A kept state directory (--state DIR) across games: another game starts from
an empty board of its own, and the game left unfinished is kept as abandoned."""

import io
from pathlib import Path
from typing import Any

from boardctl.sim.console import Console
from boardctl.sim.session import Simulation

FAST = ["controller.grace_ms=300", "controller.settle_ms=80"]


def _one_shiftago_move(state: Path) -> None:
    with Simulation("shiftago", state_dir=state, overrides=FAST) as sim:
        sim.wait_status(lambda s: s.get("phase") == "awaiting_move", 10)
        sim.hands("insert W2")
        sim.wait_status(lambda s: s.get("moves") == ["W2"], 10)


def _games(sim: Simulation) -> list[tuple[str, str]]:
    reply = sim.request({"cmd": "games"})
    return [(g["game"], g["status"]) for g in reply["games"]]


def test_restarting_with_another_game_starts_it_on_an_empty_board(tmp_path: Path) -> None:
    _one_shiftago_move(tmp_path)
    with Simulation("duploline", state_dir=tmp_path, overrides=FAST) as sim:
        status = sim.wait_status(lambda s: s.get("phase") == "awaiting_move", 10)
        assert status["game"] == "duploline"
        assert status["moves"] == []
        sim.hands("place d4 white-disc")
        sim.wait_status(lambda s: len(s.get("moves", [])) == 1, 10)
        assert _games(sim) == [("duploline", "playing"), ("shiftago", "abandoned")]


def test_new_with_another_game_in_a_kept_state_directory(tmp_path: Path) -> None:
    def make(game: str | None, options: dict[str, Any]) -> Simulation:
        sim = Simulation(game, state_dir=tmp_path, overrides=FAST, options=options or None)
        sim.start()
        return sim

    console = Console(make, out=io.StringIO(), height=40)
    try:
        console.handle("insert W2")
        assert console.sim.status()["moves"] == ["W2"]
        console.handle("new duploline")
        assert console.note == "a new game of duploline on duploline"
        assert console.sim.status()["game"] == "duploline"
        console.handle("place d4 white-disc")
        assert console.note == "place d4 white-disc: done"
        status = console.sim.status()
        assert status["moves"] != []
        console.handle("status")  # the player's task in words, as boardctl status says it
        assert f"to {status['task']}, playing" in console.note, console.note
        assert f"to {status['expects']}," not in console.note
        assert _games(console.sim) == [("duploline", "playing"), ("shiftago", "abandoned")]
    finally:
        console.sim.close()
