"""boardctl sim started from the command line: where it keeps its state, which
configuration it reads, and how it ends."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _sim(*args: str, stdin: str = "quit\n", env: dict[str, str] | None = None):
    return subprocess.run(
        [sys.executable, "-m", "boardctl.cli.main", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


def test_state_creates_a_directory_that_does_not_exist_yet(tmp_path: Path) -> None:
    state = tmp_path / "games" / "sim"
    done = _sim("sim", "--state", str(state), stdin="status\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert (state / "sim.log").is_file()
    assert (state / "games.db").is_file()


def test_state_that_is_a_file_is_refused_in_one_line(tmp_path: Path) -> None:
    state = tmp_path / "notes.txt"
    state.write_text("not a directory")
    done = _sim("sim", "--state", str(state))
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert str(state) in done.stderr and "not a directory" in done.stderr
    assert state.read_text() == "not a directory"


def test_a_missing_config_file_fails_as_config_show_does(tmp_path: Path) -> None:
    missing = tmp_path / "nonexistent.toml"
    shown = _sim("config", "show", "--config", str(missing))
    done = _sim("sim", "--config", str(missing), env={"TMPDIR": str(tmp_path)})
    assert shown.returncode == done.returncode == 2
    assert done.stderr == shown.stderr
    assert str(missing) in done.stderr
    # nothing is left behind of the temporary state
    assert not list(tmp_path.glob("boardctl-sim-*"))
