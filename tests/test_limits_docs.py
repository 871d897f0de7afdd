"""The limits docs/install.md states are the ones the code enforces."""

from __future__ import annotations

from pathlib import Path

from boardctl import config, errors, records, textfiles
from boardctl.controller import control, loop
from boardctl.web import auth, http, push, server

ROOT = Path(__file__).resolve().parent.parent


def _rows() -> list[list[str]]:
    text = (ROOT / "docs/install.md").read_text(encoding="utf-8")
    section = text.split("## 7. Limits", 1)[1].split("\n## ", 1)[0]
    return [line.split("|")[1:4] for line in section.splitlines() if line.startswith("| ")][1:]


def _table() -> dict[str, str]:
    return {what.strip(): limit.strip() for what, limit, _ in _rows()}


def _beyond() -> dict[str, str]:
    return {what.strip(): beyond.strip() for what, _, beyond in _rows()}


def _kib(n: int) -> str:
    return f"{n // (1024 * 1024)} MiB" if n % (1024 * 1024) == 0 else f"{n // 1024} KiB"


def test_the_documented_limits_are_the_enforced_ones() -> None:
    table = _table()
    assert table["a control request (one line of JSON)"] == _kib(control.MAX_REQUEST)
    assert table["nesting in a control request"] == f"{control.MAX_DEPTH} levels"
    assert table["control connections at once"] == str(control.MAX_CLIENTS)
    assert table["an idle control connection"] == f"{control.IDLE_SECONDS:g} s"
    assert table["control connections waiting to be accepted"] == str(control.BACKLOG)
    assert table["an answer a control client does not take"] == f"{control.WRITE_SECONDS:g} s"
    assert f"for up to {control.RETRY_SECONDS:g} s" in _beyond()["control connections at once"]
    assert table["a game number or `limit` in a request"] == str(loop.MAX_NUMBER)
    assert table["a configuration or board profile file"] == _kib(textfiles.MAX_TOML)
    assert table["a game record file"] == _kib(textfiles.MAX_RECORD)
    assert table["the moves of a game record"] == str(records.MAX_MOVES)
    assert table["nesting in a configuration, profile or record"] == (
        f"{textfiles.MAX_DEPTH} levels"
    )


def test_the_documented_web_limits_are_the_enforced_ones() -> None:
    table, beyond = _table(), _beyond()
    assert table["the control socket's path"] == f"{config.MAX_SOCKET_PATH} bytes"
    assert table["an error message"] == f"{errors.MAX_MESSAGE} characters"
    assert f"first {errors.EXCERPT} characters" in beyond["an error message"]
    assert table["a web request, from its first byte to its last"] == f"{http.REQUEST_SECONDS:g} s"
    assert table["headers in a web request"] == str(http.MAX_HEADERS)
    assert table["a line of a web request (the request line or a header)"] == _kib(http.MAX_LINE)
    assert table["a web request's headers in all"] == _kib(http.MAX_HEAD)
    assert table["a web request's body"] == _kib(http.MAX_BODY)
    assert table["each piece of a web answer taken"] == f"{server.IO_SECONDS:g} s"
    assert table["live-board push streams at once"] == str(push.MAX_STREAMS)
    assert f"Retry-After: {push.RETRY_AFTER}" in beyond["live-board push streams at once"]
    stalled = "a push stream's viewer not taking its updates"
    assert table[stalled] == f"{push.STALL_SECONDS:g} s"
    assert table["web requests at once (pages and commands)"] == str(server.MAX_CONNECTIONS)
    assert table["web requests waiting in line"] == str(server.MAX_QUEUED)
    assert table["web connections not yet accepted"] == str(server.BACKLOG)
    assert table["a web request's wait in line"] == f"{server.QUEUE_SECONDS:g} s"
    assert table["web requests at once from one address"] == str(server.MAX_PER_CLIENT)
    assert table["an operator's web commands waiting for the loop"] == str(server.MAX_WAITING)
    assert table["the public pages' questions to the loop"] == f"1 every {server.TODAY_SECONDS:g} s"
    first = "wrong passwords from one address before it must wait"
    assert table[first] == str(auth.FREE_GUESSES)
    assert f"{auth.GUESS_DELAY:g} s, doubling" in beyond[first]
    assert f"at most {auth.MAX_GUESS_DELAY:g} s" in beyond[first]
    assert table["wrong passwords from one address"] == str(auth.LOCKOUT_GUESSES)
    assert f"{auth.LOCKOUT_SECONDS // 60} min" in beyond["wrong passwords from one address"]
    overall = "wrong passwords from all addresses together before all must wait"
    assert table[overall] == str(auth.FREE_GUESSES_OVERALL)
    assert auth.FORGET_SECONDS == 3600 and "an hour after the last" in beyond[overall]
    assert table["a password hash's rounds"] == f"{auth.MIN_ROUNDS} to {auth.MAX_ROUNDS}"
    assert table["a web token"] == f"{auth.MIN_TOKEN} characters at least"
