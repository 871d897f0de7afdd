"""A control request's error reaches only the client that sent it: the board
goes on recording and ``new`` still works (an unknown game number, a negative
one, a 30-digit one, an export before any game finished)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest
from controller_support import profile_for

from boardctl.controller.loop import Loop
from boardctl.controller.machine import Controller
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.sensing import LinkUp, SensorSnapshot


class _Strip:
    def show(self, frame: Any) -> None:
        pass


def _running(store: Store) -> Loop:
    profile = profile_for(create("shiftago"))
    loop = Loop(Controller(profile, recorder=store), _Strip(), store=store)
    loop.start()
    loop.handle(LinkUp("test"), 0.0)
    loop.handle(SensorSnapshot((0,) * profile.channel_count), 0.0)
    assert loop.controller.state is Phase.AWAITING_MOVE
    return loop


def _ask(loop: Loop, body: dict[str, Any]) -> dict[str, Any]:
    import threading

    from boardctl.controller.loop import _Request

    item = _Request(body, threading.Event())
    loop.handle(item, 1.0)
    assert item.reply is not None
    return item.reply


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"cmd": "export"}, "no game has finished yet"),
        ({"cmd": "export", "id": 99}, "no game number 99"),
        ({"cmd": "export", "id": -1}, "no game number -1"),
        ({"cmd": "export", "id": 10**30}, "'id' must be a game number"),
        ({"cmd": "games", "limit": 10**30}, "'limit' must be"),
        ({"cmd": "games", "limit": -5}, "'limit' must be"),
    ],
)
def test_a_bad_export_is_the_clients_error_and_the_board_plays_on(
    tmp_path: Path, body: dict[str, Any], words: str, caplog: pytest.LogCaptureFixture
) -> None:
    with Store(tmp_path / "g.db") as store:
        loop = _running(store)
        with caplog.at_level(logging.WARNING):
            reply = _ask(loop, body)
        assert not reply["ok"] and words in reply["error"], reply
        assert loop.controller.state is Phase.AWAITING_MOVE, "the board is not in a fault"
        assert "fault" not in loop.controller.status()
        assert "Traceback" not in caplog.text and not any(r.exc_info for r in caplog.records)
        assert _ask(loop, {"cmd": "new"})["ok"], "a new game can still start"


def test_a_null_limit_is_the_default_limit(tmp_path: Path) -> None:
    # found by tests/test_readers_fuzz.py: "limit": null reached SQLite as LIMIT NULL
    with Store(tmp_path / "g.db") as store:
        loop = _running(store)
        reply = _ask(loop, {"cmd": "games", "limit": None})
        assert reply["ok"] and len(reply["games"]) == 1, reply


def test_a_deeply_nested_option_on_the_command_line_is_no_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from boardctl.cli.main import main

    deep = "players=" + "[" * 5000
    status = main(["new", "shiftago", deep, "--socket", str(tmp_path / "none.sock")])
    err = capsys.readouterr().err
    assert status == 2 and "cannot reach the controller" in err, err
