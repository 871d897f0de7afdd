"""One version, boardctl.__version__, and everyone who asks is told it: the
command, the daemon's status (which the web pages publish), the installed
distribution and the Debian package."""

from __future__ import annotations

from importlib.metadata import version

import pytest
from controller_support import profile_for

from boardctl import __version__
from boardctl.cli.main import main
from boardctl.controller.machine import Controller
from boardctl.engines import create


def test_boardctl_version_prints_it(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out == f"boardctl {__version__}\n"


def test_the_status_tells_the_daemons_version() -> None:
    status = Controller(profile_for(create("shiftago"))).status()
    assert status["version"] == __version__


def test_the_installed_distribution_has_the_same_version() -> None:
    # pyproject.toml reads it from boardctl/__init__.py: one place to raise it
    assert version("boardctl") == __version__
