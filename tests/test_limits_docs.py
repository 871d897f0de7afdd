"""The limits docs/install.md states are the ones the code enforces."""

from __future__ import annotations

from pathlib import Path

from boardctl import records, textfiles
from boardctl.controller import control, loop

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
