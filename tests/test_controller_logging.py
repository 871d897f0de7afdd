"""The controller's log says what was played, not every step of its machine."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest
from controller_support import Table, profile_for

from boardctl.controller.machine import Controller
from boardctl.engines import create


@pytest.fixture
def library() -> Iterator[logging.Logger]:
    """The transitions logger, as a fresh process has it (and left so)."""
    logger = logging.getLogger("transitions")
    level = logger.level
    logger.setLevel(logging.NOTSET)
    yield logger
    logger.setLevel(level)


def _play() -> None:
    table = Table(Controller(profile_for(create("shiftago"))))
    table.hands("insert W3", "p0")


def test_at_info_the_log_has_the_moves_and_no_state_machine_chatter(
    caplog: pytest.LogCaptureFixture, library: logging.Logger
) -> None:
    caplog.set_level(logging.INFO)
    _play()
    names = {r.name for r in caplog.records}
    assert "played W3" in caplog.messages
    assert not [n for n in names if n.startswith("transitions")]


def test_debug_logging_keeps_the_state_machine_steps(
    caplog: pytest.LogCaptureFixture, library: logging.Logger
) -> None:
    caplog.set_level(logging.DEBUG)
    _play()
    assert [r for r in caplog.records if r.name.startswith("transitions")]
    assert "played W3" in caplog.messages
