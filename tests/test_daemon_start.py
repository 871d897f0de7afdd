"""A start that is refused changes nothing: one state folder serves one board,
the stored game stays as it was when anything is wrong, and the game must be
the board's own wherever it is named."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from boardctl import config
from boardctl.cli.main import main
from boardctl.controller.control import request
from boardctl.controller.store import Store
from boardctl.daemon.runner import Daemon, Hardware
from boardctl.daemon.systemd_notify import Notifier
from boardctl.errors import BoardctlError, ConfigError
from hardware.leds.sim import SimStrip
from hardware.profiles import load_profile
from hardware.sim_sensing import ScriptedSource

PROFILE = load_profile("shiftago-colour")


def _config(state: Path, sock: Path, *more: str) -> config.Config:
    return config.load(
        "/nonexistent",
        [f'storage.state_dir="{state}"', f'control.socket="{sock}"', *more],
    )


def _daemon(cfg: config.Config) -> Daemon:
    source = ScriptedSource(PROFILE.channel_count)
    return Daemon(
        cfg, PROFILE, hardware=Hardware(source, SimStrip(PROFILE.leds)), notifier=Notifier({})
    )


def test_a_second_daemon_on_the_same_state_folder_is_refused(tmp_path: Path) -> None:
    state = tmp_path / "state"
    first = _daemon(_config(state, tmp_path / "a.sock"))
    thread = threading.Thread(target=first.run)
    thread.start()
    try:
        assert first.ready.wait(5)
        second = _daemon(_config(state, tmp_path / "b.sock"))
        with pytest.raises(BoardctlError) as refused:
            second.run()
        message = str(refused.value)
        assert str(state) in message and f"pid {os.getpid()}" in message, message
        assert not (tmp_path / "b.sock").exists()
        # the first one still serves its socket and its game
        assert request(tmp_path / "a.sock", {"cmd": "status"})["ok"]
        assert len(request(tmp_path / "a.sock", {"cmd": "games"})["games"]) == 1
    finally:
        first.stop()
        thread.join(10)
    # once the first stopped, the folder is free again
    again = _daemon(_config(state, tmp_path / "a.sock"))
    runner = threading.Thread(target=again.run)
    runner.start()
    try:
        assert again.ready.wait(5)
    finally:
        again.stop()
        runner.join(10)


def test_a_second_daemon_on_the_same_control_socket_is_refused(tmp_path: Path) -> None:
    sock = tmp_path / "control.sock"
    first = _daemon(_config(tmp_path / "one", sock))
    thread = threading.Thread(target=first.run)
    thread.start()
    try:
        assert first.ready.wait(5)
        with pytest.raises(BoardctlError, match="another boardctl answers"):
            _daemon(_config(tmp_path / "two", sock)).run()
        assert request(sock, {"cmd": "status"})["ok"], "the first keeps its socket"
    finally:
        first.stop()
        thread.join(10)


def test_a_refused_start_leaves_the_stored_game_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    state = tmp_path / "state"
    with Store(state / "games.db") as store:
        store.begin("shiftago", {"players": 2})
        store.record("W1")
    blocker = tmp_path / "file"
    blocker.write_text("")
    status = main(
        [
            "run",
            "--set",
            f'storage.state_dir="{state}"',
            "--set",
            f'control.socket="{blocker}/x.sock"',
        ]
    )
    assert status == 2
    assert "cannot make the control socket" in capsys.readouterr().err
    with Store(state / "games.db") as store:
        games = store.games()
        assert [(g["status"], g["moves"]) for g in games] == [("playing", 1)]


def test_the_configured_game_must_be_the_boards(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = _config(tmp_path / "state", tmp_path / "c.sock", 'board.game="duploline"')
    with pytest.raises(ConfigError, match="plays shiftago, not duploline"):
        _daemon(cfg)
    assert not (tmp_path / "state").exists()
    assert main(["config", "show", "--set", "board.game=duploline"]) == 2
    assert "plays shiftago, not duploline" in capsys.readouterr().err


def test_the_simulator_refuses_a_game_its_board_does_not_play(tmp_path: Path) -> None:
    from boardctl.sim.session import Simulation

    with pytest.raises(BoardctlError, match="plays shiftago, not duploline"):
        Simulation(state_dir=tmp_path / "s", overrides=["board.game=duploline"])


def test_a_second_simulator_on_a_kept_folder_is_refused_at_once(tmp_path: Path) -> None:
    import time

    from boardctl.sim.session import Simulation

    state = tmp_path / "kept"
    with Simulation(state_dir=state) as first:
        began = time.monotonic()
        with pytest.raises(BoardctlError) as refused, Simulation(state_dir=state):
            pass
        assert time.monotonic() - began < 5, "refused without waiting for readiness"
        assert str(state) in str(refused.value) and f"pid {os.getpid()}" in str(refused.value)
        assert first.status()["ok"]


class _BrokenStrip(SimStrip):
    def open(self) -> None:
        from hardware.errors import HardwareUnavailable

        raise HardwareUnavailable("the LED strip cannot start here")


class _BrokenButtons(ScriptedSource):
    def start(self, emit: object) -> None:
        from hardware.errors import HardwareUnavailable

        raise HardwareUnavailable("GPIO 5 is busy")


@pytest.mark.parametrize("broken", ["leds", "sensors"])
def test_hardware_that_cannot_start_leaves_the_stored_game_as_it_was(
    tmp_path: Path, broken: str
) -> None:
    from hardware.errors import HardwareUnavailable

    state = tmp_path / "state"
    with Store(state / "games.db") as store:
        store.begin("duploline", {})
        store.record("a1")  # another game than the board's: a start would abandon it
    cfg = _config(state, tmp_path / "c.sock")
    source = (_BrokenButtons if broken == "sensors" else ScriptedSource)(PROFILE.channel_count)
    strip = (_BrokenStrip if broken == "leds" else SimStrip)(PROFILE.leds)
    daemon = Daemon(cfg, PROFILE, hardware=Hardware(source, strip), notifier=Notifier({}))
    with pytest.raises(HardwareUnavailable):
        daemon.run()
    with Store(state / "games.db") as store:
        assert [(g["game"], g["status"]) for g in store.games()] == [("duploline", "playing")]
    assert not (tmp_path / "c.sock").exists()
