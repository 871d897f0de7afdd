"""boardctl sim as a person uses it: typed into a real terminal (tmux), read
off the screen."""

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

ROOT = Path(__file__).resolve().parent.parent


class Terminal:
    """A tmux pane on a private server: type into it, read what it shows."""

    def __init__(self, command: str, width: int = 120, height: int = 50) -> None:
        self.server = f"boardctl-test-{uuid.uuid4().hex[:8]}"
        self.tmux("new-session", "-d", "-s", "sim", "-x", str(width), "-y", str(height), command)

    def tmux(self, *args: str) -> str:
        done = subprocess.run(
            ["tmux", "-L", self.server, *args], capture_output=True, text=True, check=True
        )
        return done.stdout

    def type(self, line: str) -> None:
        self.tmux("send-keys", "-t", "sim", "-l", line)
        self.tmux("send-keys", "-t", "sim", "Enter")

    def screen(self, joined: bool = False) -> str:
        """What the pane shows; ``joined``: a line that wrapped as one line."""
        return self.tmux("capture-pane", "-t", "sim", "-p", *(["-J"] if joined else []))

    def wait_for(self, test: Callable[[str], bool], what: str, timeout: float = 15.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            text = self.screen()
            assert "Traceback" not in text, text
            if test(text):
                return text
            if time.monotonic() > deadline:
                pytest.fail(f"the screen never showed {what}:\n{text}")
            time.sleep(0.05)

    def shows(self, *words: str, timeout: float = 15.0) -> str:
        return self.wait_for(lambda t: all(w in t for w in words), " and ".join(words), timeout)

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.server, "kill-server"], capture_output=True)


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    env = f"PYTHONPATH={ROOT} TERM=xterm-256color"
    command = (
        f"cd {tmp_path} && env {env} {sys.executable} -m boardctl.cli.main sim "
        "--set controller.grace_ms=300 --set controller.settle_ms=80; "
        "echo sim-exited-$?; sleep 60"
    )
    term = Terminal(command)
    try:
        yield term
    finally:
        term.close()


def test_a_person_plays_a_move_makes_a_mistake_fixes_it_and_quits(terminal: Terminal) -> None:
    terminal.shows("sim>", "blue (player 1) to insert", "the board is right")

    terminal.type("insert W1")
    text = terminal.shows("red (player 2) to insert", "moves (1):")
    assert "1  B . . . . . .  1" in text  # blue's marble on a1
    # the tracks glow in red's colour, the red of its marbles (#e02020), dimmed or not
    coloured = terminal.tmux("capture-pane", "-t", "sim", "-p", "-e")
    assert any(_shade_of((224, 32, 32), c) for c in _led_colours(coloured))
    assert not any(_shade_of((32, 96, 224), c) for c in _led_colours(coloured))

    terminal.type("place d4 red")
    terminal.shows("WRONG BOARD", "take away or fix: d4")

    terminal.type("lift a1")
    terminal.shows("put back: blue on a1")
    terminal.type("place a1 blue")
    terminal.wait_for(lambda t: "put back" not in t, "a1 put back")

    terminal.type("lift d4")
    terminal.wait_for(
        lambda t: "the board is right" in t and "WRONG BOARD" not in t, "the board right again"
    )

    # the operator takes the move back: the screen says what to take off the board
    terminal.type("undo")
    terminal.shows("take W1 back off the board")
    terminal.type("lift a1")
    terminal.wait_for(
        lambda t: "blue (player 1) to insert" in t and "take W1" not in t,
        "the undone marble taken off",
    )

    terminal.type("dance the tango")
    terminal.shows("unknown command 'dance'")

    terminal.type("quit")
    terminal.shows("sim-exited-0")


def _led_colours(text: str) -> set[tuple[int, int, int]]:
    found = re.findall(r"\x1b\[38;2;(\d+);(\d+);(\d+)m●", text)
    return {(int(r), int(g), int(b)) for r, g, b in found}


def _shade_of(full: tuple[int, int, int], colour: tuple[int, int, int]) -> bool:
    """``colour`` is ``full`` at some brightness (not the dim base glow)."""
    factor = max(colour) / max(full)
    return factor > 0.3 and all(abs(c - f * factor) <= 2 for c, f in zip(colour, full, strict=True))


def _sim_command(tmp_path: Path, *args: str) -> str:
    """The simulator as the pane's own process, its temporary files in ``tmp_path``."""
    env = f"PYTHONPATH={ROOT} TERM=xterm-256color TMPDIR={tmp_path}"
    return f"cd {tmp_path} && exec env {env} {sys.executable} -m boardctl.cli.main sim " + " ".join(
        args
    )


def _wait_until(test: Callable[[], bool], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while not test():
        if time.monotonic() > deadline:
            pytest.fail(f"{what} did not happen within {timeout} s")
        time.sleep(0.05)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    with contextlib.suppress(OSError):
        return stat.read_text().rsplit(")", 1)[1].split()[0] != "Z"  # a zombie has ended
    return True


@pytest.mark.parametrize("kept", [False, True], ids=["temporary", "state"])
@pytest.mark.parametrize("how", ["closing the terminal", "SIGTERM"])
def test_ending_the_sim_from_outside_removes_its_temporary_files_and_stops_the_daemon(
    tmp_path: Path, how: str, kept: bool
) -> None:
    state = tmp_path / "state"
    term = Terminal(_sim_command(tmp_path, *(["--state", str(state)] if kept else [])))
    try:
        term.shows("sim>", "the board is right")
        pid = int(term.tmux("display-message", "-p", "-t", "sim", "#{pane_pid}"))
        # the virtual microcontroller's directory, and without --state the game database's
        assert list(tmp_path.glob("boardctl-vmcu-*"))
        assert bool(list(tmp_path.glob("boardctl-sim-*"))) is not kept
        if how == "SIGTERM":
            os.kill(pid, signal.SIGTERM)
        else:
            term.close()  # the terminal goes away: the process is hung up on
        _wait_until(lambda: not _running(pid), "the sim ending")
        assert not list(tmp_path.glob("boardctl-*"))
        if kept:
            # the daemon stopped as it does under systemd: socket gone, database checkpointed
            left = sorted(p.name for p in state.iterdir())
            assert "control.sock" not in left, left
            assert not [name for name in left if name.endswith(("-wal", "-shm"))], left
            log = (state / "sim.log").read_text()
            assert "stopped; the LEDs are dark and the game is saved" in log, log
    finally:
        term.close()


def test_at_80_by_24_the_title_and_the_line_being_typed_stay_on_the_screen(
    tmp_path: Path,
) -> None:
    fast = "--set controller.grace_ms=300 --set controller.settle_ms=80"
    term = Terminal(_sim_command(tmp_path, fast), width=80, height=24)
    try:
        term.shows("sim>", "the board is right")
        term.type("place d4 blue")
        term.shows("WRONG BOARD", "take away or fix: d4")
        term.tmux("send-keys", "-t", "sim", "-l", "lift d4")
        # the typed line reaches the screen first (tmux hands it on in its own time)
        term.wait_for(lambda t: "sim> lift d4" in t, "the line being typed")
        # d4 blinks: the screen is drawn again several times while the person types
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            rows = term.screen(joined=True).splitlines()
            assert rows[0] == "boardctl sim · shiftago on shiftago-colour", rows
            assert "sim> lift d4" in rows, rows
            assert all(len(row) <= 80 for row in rows), rows
            time.sleep(0.05)
        term.tmux("send-keys", "-t", "sim", "Enter")
        term.wait_for(
            lambda t: "the board is right" in t and "WRONG BOARD" not in t, "the board right"
        )
    finally:
        term.close()


def test_a_new_game_asked_for_from_another_terminal_shows_without_typing(tmp_path: Path) -> None:
    state = tmp_path / "state"
    term = Terminal(_sim_command(tmp_path, "--state", str(state)))
    try:
        term.shows("sim>", "the board is right")
        # on the empty board the new game's LEDs are the old one's: only the game changed
        socket = str(state / "control.sock")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        cli = [sys.executable, "-m", "boardctl.cli.main"]
        subprocess.run(
            [*cli, "new", "--socket", socket, "shiftago", "players=4"],
            check=True,
            capture_output=True,
            env=env,
        )
        term.shows("players=4", timeout=5)
    finally:
        term.close()


def test_a_person_lays_sticks_on_the_presence_board_and_the_second_tells_the_first(
    tmp_path: Path,
) -> None:
    fast = "--set controller.grace_ms=300 --set controller.settle_ms=80"
    term = Terminal(_sim_command(tmp_path, "bidiline --profile bidiline-presence", fast))
    try:
        term.shows("sim>", "amber (player 1) to draw the first segment")
        term.type("place d4-d5 A")
        # the same stick laid from d4 or from d5: the two are offered, nothing is recorded
        term.shows("A:d4-d5 or A:d5-d4", "moves (0): none")
        term.type("place d5-d6 B")  # blue starts where the first stick started: d5
        term.shows("moves (2): A:d5-d4 B:d5-d6", "the amber (A) end at d4", "(B) end at d6")
    finally:
        term.close()
