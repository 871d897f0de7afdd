"""The daemon wires sensors, controller, store, LEDs and systemd: it says READY only
after the board was read, plays what hands do, goes dark on stop and resumes."""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from boardctl import config
from boardctl.board import BoardProfile
from boardctl.controller.control import request
from boardctl.daemon.runner import Daemon, Hardware
from boardctl.daemon.systemd_notify import Notifier
from boardctl.sensing import LinkDown, LinkUp, SensorSnapshot
from hardware.leds.sim import SimStrip
from hardware.profiles import load_profile
from hardware.sim_sensing import ScriptedSource

PROFILE = load_profile("shiftago-colour")
BLUE = 2  # the profile's code for a marble of player 0


def _wait(predicate: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` passes."""
    end = time.monotonic() + timeout
    tick = threading.Event()
    while not predicate():
        if time.monotonic() > end:
            return False
        tick.wait(0.01)
    return True


@contextmanager
def _daemon(
    tmp_path: Path, source: ScriptedSource, strip: SimStrip, profile: BoardProfile = PROFILE
) -> Iterator[tuple[Daemon, socket.socket]]:
    cfg = config.load(
        "/nonexistent",
        [
            f'storage.state_dir="{tmp_path / "state"}"',
            f'control.socket="{tmp_path / "control.sock"}"',
            "controller.settle_ms=30",
        ],
    )
    notify_path = str(tmp_path / "notify")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    listener.bind(notify_path)
    listener.settimeout(5)
    notifier = Notifier({"NOTIFY_SOCKET": notify_path, "WATCHDOG_USEC": "400000"})
    daemon = Daemon(cfg, profile, hardware=Hardware(source, strip), notifier=notifier)
    thread = threading.Thread(target=daemon.run)
    thread.start()
    try:
        yield daemon, listener
    finally:
        daemon.stop()
        thread.join(10)
        listener.close()
        Path(notify_path).unlink()
        assert not thread.is_alive()


def _messages(listener: socket.socket, until: bytes, timeout: float = 5.0) -> list[bytes]:
    got: list[bytes] = []
    end = time.monotonic() + timeout
    while True:
        assert time.monotonic() < end, f"no {until!r} in {timeout} s, only {got[-5:]}"
        message = listener.recv(256)
        got.append(message)
        if message.startswith(until):
            return got


def test_ready_after_the_board_is_read_then_watchdog_pings(tmp_path: Path) -> None:
    strip = SimStrip(PROFILE.leds)
    with _daemon(tmp_path, ScriptedSource(PROFILE.channel_count), strip) as (daemon, listener):
        before_ready = _messages(listener, b"READY=1")
        assert before_ready[0].startswith(b"STATUS=waiting for the sensors")
        assert daemon.ready.is_set()
        assert _messages(listener, b"WATCHDOG=1")[-1] == b"WATCHDOG=1"


def test_a_move_is_played_saved_and_resumed_after_a_restart(tmp_path: Path) -> None:
    strip = SimStrip(PROFILE.leds)
    source = ScriptedSource(PROFILE.channel_count)
    sock = tmp_path / "control.sock"
    a1 = PROFILE.site("a1").channel
    assert a1 is not None
    with _daemon(tmp_path, source, strip) as (daemon, _):
        assert _wait(daemon.ready.is_set)
        source.set(a1, BLUE)  # player 0 pushes a marble in at W1 (or Sa)
        assert _wait(lambda: request(sock, {"cmd": "status"})["moves_applied"] == 1)
    # stopped: the last frame is dark
    assert strip.frames[-1].lit() == ()

    strip2 = SimStrip(PROFILE.leds)
    source2 = ScriptedSource(
        PROFILE.channel_count,
        initial=[BLUE if i == a1 else 0 for i in range(PROFILE.channel_count)],
    )
    with _daemon(tmp_path, source2, strip2) as (daemon, _):
        assert _wait(daemon.ready.is_set)
        status = request(sock, {"cmd": "status"})
        assert status["moves_applied"] == 1
        assert status["to_move"] == 1


def test_logs_carry_no_timestamp_when_journald_reads_them(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import logging

    from boardctl.daemon.runner import configure_logging

    root = logging.getLogger()
    saved = (list(root.handlers), root.level)
    try:
        configure_logging("info", {"JOURNAL_STREAM": "8:1234"})
        logging.getLogger("boardctl.test").info("board ready")
        assert capsys.readouterr().err == "INFO boardctl.test: board ready\n"
        configure_logging("info", {})
        logging.getLogger("boardctl.test").info("board ready")
        stamped = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ INFO boardctl.test: board ready\n"
        assert re.match(stamped, capsys.readouterr().err)
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])


def test_the_state_machine_library_speaks_only_when_debugging(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import logging

    from boardctl.daemon.runner import configure_logging

    root = logging.getLogger()
    library = logging.getLogger("transitions.core")
    saved = (list(root.handlers), root.level, logging.getLogger("transitions").level)
    try:
        configure_logging("info", {"JOURNAL_STREAM": "8:1"})
        library.info("Entered state playing")
        assert capsys.readouterr().err == ""
        configure_logging("debug", {"JOURNAL_STREAM": "8:1"})
        library.info("Entered state playing")
        assert "Entered state playing" in capsys.readouterr().err
    finally:
        root.handlers[:] = saved[0]
        root.setLevel(saved[1])
        logging.getLogger("transitions").setLevel(saved[2])


def test_a_board_now_playing_another_game_does_not_resume_the_old_one(tmp_path: Path) -> None:
    from boardctl.controller.store import Store

    with Store(tmp_path / "state" / "games.db") as store:
        store.begin("shiftago", {"players": 2})
        store.record("W1")
    duplo = load_profile("duploline")
    sock = tmp_path / "control.sock"
    with _daemon(tmp_path, ScriptedSource(duplo.channel_count), SimStrip(duplo.leds), duplo) as (
        daemon,
        _,
    ):
        assert _wait(daemon.ready.is_set)
        status = request(sock, {"cmd": "status"})
        assert (status["game"], status["moves_applied"]) == ("duploline", 0)
        games = request(sock, {"cmd": "games"})["games"]
        assert [g["status"] for g in games if g["game"] == "shiftago"] == ["abandoned"]


def test_a_stored_game_whose_moves_no_longer_replay_is_kept_as_abandoned(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A record the rules of this version refuse (written by another version,
    or damaged) does not keep the daemon from starting: it begins a new game
    and says why the old one was not resumed."""
    from boardctl.controller.store import Store

    with Store(tmp_path / "state" / "games.db") as store:
        store.begin(PROFILE.game, {})
        store.record("Q9")
    sock = tmp_path / "control.sock"
    with _daemon(tmp_path, ScriptedSource(PROFILE.channel_count), SimStrip(PROFILE.leds)) as (
        daemon,
        _,
    ):
        assert _wait(daemon.ready.is_set)
        status = request(sock, {"cmd": "status"})
        assert (status["game"], status["moves_applied"]) == (PROFILE.game, 0)
        games = request(sock, {"cmd": "games"})["games"]
        assert [g["status"] for g in games][:2] in (
            ["abandoned", "playing"],
            ["playing", "abandoned"],
        )
    assert "the unfinished shiftago game cannot go on here: move 1 ('Q9')" in caplog.text


def test_a_control_socket_below_a_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.main import main

    blocker = tmp_path / "file"
    blocker.write_text("")
    conf = tmp_path / "boardctl.toml"
    conf.write_text(f'[storage]\nstate_dir = "{tmp_path / "state"}"\n')
    status = main(["run", "--config", str(conf), "--set", f"control.socket={blocker}/x.sock"])
    err = capsys.readouterr().err
    assert status == 2
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    assert f"cannot make the control socket {blocker}/x.sock" in err
    assert f"{blocker} is not a directory" in err
    assert "--set: [control] socket" in err
    assert "set control.socket to a path" in err


def test_run_with_a_missing_config_file_refuses_to_start(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.main import main

    missing = tmp_path / "nowhere.toml"
    state = tmp_path / "state"
    assert main(["run", "--config", str(missing), "--set", f'storage.state_dir="{state}"']) == 2
    err = capsys.readouterr().err
    assert f"{missing}: cannot read the configuration" in err
    assert not state.exists(), "nothing was started"


class _Unplugged(ScriptedSource):
    """The microcontroller is not there: the source says so, then nothing,
    until :meth:`plug_in`."""

    def start(self, emit: Any) -> None:
        self._emit = emit
        emit(LinkDown("serial port /dev/boardctl-mcu does not exist: is the board plugged in?"))

    def plug_in(self) -> None:
        assert self._emit is not None
        self._emit(LinkUp("plugged in"))
        self._emit(SensorSnapshot(tuple(self.values)))


def test_ready_while_the_microcontroller_is_unplugged_showing_the_fault(tmp_path: Path) -> None:
    # systemd must not wait 30 s and fail the start: the daemon is up, and the
    # board shows the fault until the sensors answer, then plays
    strip = SimStrip(PROFILE.leds)
    source = _Unplugged(PROFILE.channel_count)
    with _daemon(tmp_path, source, strip) as (daemon, listener):
        got = _messages(listener, b"READY=1")
        ready = got[-1].decode()
        assert "STATUS=" in ready and "plugged in" in ready, got
        assert daemon.loop is not None and daemon.loop.controller.state.value == "fault"
        source.plug_in()
        assert _wait(lambda: daemon.loop is not None and daemon.loop.controller.have_snapshot)
        sock = tmp_path / "control.sock"
        assert _wait(lambda: request(sock, {"cmd": "status"}).get("phase") == "awaiting_move"), (
            request(sock, {"cmd": "status"})
        )
