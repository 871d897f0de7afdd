"""Fuzzing every reader a user or a peer can feed: game records, board
profiles, configurations and control requests. Whatever comes in, the only
outcome is the reader's documented error (commands exit 2), and the daemon
goes on serving.

The normal suite runs a few hundred examples of each; ``make fuzz`` sets
``BOARDCTL_FUZZ=1`` for many thousands."""

from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from controller_support import profile_for
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boardctl import config, records
from boardctl.cli.main import main
from boardctl.controller.control import parse_request
from boardctl.controller.loop import Loop, _Request
from boardctl.controller.machine import Controller
from boardctl.controller.store import Store
from boardctl.controller.view import Phase
from boardctl.engines import create
from boardctl.errors import ConfigError, RecordError
from boardctl.sensing import LinkUp, SensorSnapshot
from hardware.errors import ProfileError
from hardware.profiles import load_profile, parse_profile

PROFILES = Path(__file__).resolve().parent.parent / "hardware" / "profiles"
LONG = bool(os.environ.get("BOARDCTL_FUZZ"))
FUZZ = settings(
    max_examples=5_000 if LONG else 40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)

# -- building blocks ----------------------------------------------------------------

_SCALARS: st.SearchStrategy[Any] = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["shiftago", "duploline", "express", "expert", "W1", "a1", "", "\x00"]),
)
_JSON: st.SearchStrategy[Any] = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=5),
        st.dictionaries(st.text(max_size=8), inner, max_size=5),
    ),
    max_leaves=20,
)
_INTERESTING_TOML = [
    '""',
    "-1",
    "0",
    "1e999",
    "-inf",
    "nan",
    "99999999999999999999",
    '"x"',
    "[]",
    "{}",
    "true",
    '"\\u0000"',
    "[[[[1]]]]",
    '{ kind = "cell" }',
    '"#zzzzzz"',
]


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return {"nan": "nan", "inf": "inf", "-inf": "-inf"}.get(repr(value), repr(value))
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return (
            "{" + ", ".join(f"{json.dumps(k)} = {_toml_value(v)}" for k, v in value.items()) + "}"
        )
    return '""'


_TOML_SCALARS = st.one_of(
    st.booleans(),
    st.integers(-(2**63), 2**63 - 1),
    st.floats(allow_nan=True),
    st.text(max_size=10),
)
_TOML_VALUES: st.SearchStrategy[Any] = st.recursive(
    _TOML_SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=10,
)


def _mutated(text: str, data: st.DataObject) -> str:
    """``text`` with a few lines changed: a value replaced, a line dropped,
    doubled, or cut short, or random characters put in."""
    lines = text.splitlines()
    for _ in range(data.draw(st.integers(1, 4))):
        if not lines:
            break
        i = data.draw(st.integers(0, len(lines) - 1))
        how = data.draw(st.sampled_from(["value", "drop", "double", "cut", "insert"]))
        line = lines[i]
        if how == "value" and "=" in line:
            key = line.split("=", 1)[0]
            value = data.draw(
                st.one_of(st.sampled_from(_INTERESTING_TOML), _TOML_VALUES.map(_toml_value))
            )
            lines[i] = f"{key}= {value}"
        elif how == "drop":
            del lines[i]
        elif how == "double":
            lines.insert(i, line)
        elif how == "cut":
            lines[i] = line[: data.draw(st.integers(0, len(line)))]
        else:
            lines[i] = line + data.draw(st.text(max_size=6))
    return "\n".join(lines) + "\n"


# -- game records ----------------------------------------------------------------------


def _record_bytes() -> st.SearchStrategy[bytes]:
    record_like = st.fixed_dictionaries(
        {},
        optional={
            "game": st.one_of(st.sampled_from(["shiftago", "duploline"]), _SCALARS),
            "options": st.one_of(
                st.dictionaries(
                    st.sampled_from(
                        ["players", "variant", "handicap_turns", "handicap_player", "x"]
                    ),
                    _SCALARS,
                    max_size=4,
                ),
                _JSON,
            ),
            "moves": st.one_of(
                st.lists(st.sampled_from(["W1", "E1", "Sa", "Na", "a1", "x", ""]), max_size=12),
                _JSON,
            ),
            "started": _SCALARS,
            "result": _JSON,
        },
    )
    return st.one_of(
        st.binary(max_size=200),
        _JSON.map(lambda v: json.dumps(v).encode()),
        record_like.map(lambda v: json.dumps(v).encode()),
    )


@FUZZ
@given(data=_record_bytes())
def test_any_record_file_is_read_or_refused_with_a_record_error(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_bytes(data)
        try:
            record = records.load(path)
        except RecordError:
            return
        assert isinstance(record.moves, tuple)


@FUZZ
@given(data=_record_bytes(), command=st.sampled_from(["replay", "show", "moves"]))
def test_the_rules_commands_exit_0_or_2_on_any_record(
    data: bytes, command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        path.write_bytes(data)
        status = main(["rules", command, str(path)])
    err = capsys.readouterr().err
    assert status in (0, 2), err
    assert "Traceback" not in err


# -- board profiles ------------------------------------------------------------------

_PROFILE_TEXTS = [
    (PROFILES / f"{name}.toml").read_text(encoding="utf-8")
    for name in ("shiftago-colour", "shiftago-presence", "duploline")
]


@FUZZ
@given(data=st.data())
def test_any_mutated_profile_loads_or_lists_its_problems(data: st.DataObject) -> None:
    text = _mutated(data.draw(st.sampled_from(_PROFILE_TEXTS)), data)
    try:
        profile = parse_profile(text, "board.toml")
    except ProfileError as exc:
        assert exc.problems and all(p.startswith("board.toml") for p in exc.problems), exc
        return
    assert profile.sites


@FUZZ
@given(raw=st.binary(max_size=300))
def test_any_bytes_as_a_profile_file_are_refused_cleanly(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "board.toml"
        path.write_bytes(raw)
        with pytest.raises(ProfileError):
            load_profile(path)


# -- configurations ------------------------------------------------------------------

_SECTIONS = {
    "board": ["profile", "game"],
    "game": ["players", "variant", "handicap_turns", "x"],
    "serial": ["port", "baudrate"],
    "controller": ["settle_ms", "grace_ms", "attract_after_s", "frame_rate_hz", "x"],
    "leds": ["brightness", "palette"],
    "storage": ["state_dir"],
    "control": ["socket", "mode"],
    "logging": ["level"],
    "nonsense": ["x"],
}


_SHIFTAGO = load_profile("shiftago-colour")


@st.composite
def _config_text(draw: st.DrawFn) -> str:
    lines: list[str] = []
    for section in draw(st.lists(st.sampled_from(sorted(_SECTIONS)), max_size=4, unique=True)):
        lines.append(f"[{section}]")
        for key in draw(st.lists(st.sampled_from(_SECTIONS[section]), max_size=3, unique=True)):
            value = draw(
                st.one_of(st.sampled_from(_INTERESTING_TOML), _TOML_VALUES.map(_toml_value))
            )
            lines.append(f"{key} = {value}")
    return "\n".join(lines) + "\n"


@FUZZ
@given(text=_config_text(), raw=st.binary(max_size=60), use_raw=st.booleans())
def test_any_configuration_loads_or_is_refused_with_a_config_error(
    text: str, raw: bytes, use_raw: bool
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "boardctl.toml"
        path.write_bytes(raw if use_raw else text.encode())
        try:
            cfg = config.load(path, required=True)
            cfg.check_board(_SHIFTAGO)
        except ConfigError as exc:
            assert str(path) in str(exc) or "--set" in str(exc) or "profile" in str(exc), exc


# -- control requests ---------------------------------------------------------------


class _Dark:
    def show(self, frame: Any) -> None:
        pass


_COMMANDS = ["status", "new", "undo", "games", "export", "nonsense", ""]


def _request_lines() -> st.SearchStrategy[bytes]:
    body = st.fixed_dictionaries(
        {"cmd": st.one_of(st.sampled_from(_COMMANDS), _SCALARS)},
        optional={
            "game": st.one_of(st.sampled_from(["shiftago", "duploline"]), _SCALARS),
            "options": st.one_of(
                st.dictionaries(
                    st.sampled_from(["players", "variant", "handicap_turns", "x"]),
                    _SCALARS,
                    max_size=3,
                ),
                _JSON,
            ),
            "id": st.one_of(st.integers(-(2**70), 2**70), _SCALARS),
            "limit": st.one_of(st.integers(-(2**70), 2**70), _SCALARS),
        },
    )
    return st.one_of(
        st.binary(max_size=100),
        _JSON.map(lambda v: json.dumps(v).encode()),
        body.map(lambda v: json.dumps(v).encode()),
    )


_BOARD: dict[str, Loop] = {}


def _board() -> Loop:
    """One daemon's loop for every example (its store in a temporary folder,
    without waiting for the disk): what a long-running daemon sees."""
    if "loop" not in _BOARD:
        tmp = tempfile.mkdtemp(prefix="boardctl-fuzz-")
        store = Store(Path(tmp) / "g.db")
        store._db.execute("PRAGMA synchronous=OFF")  # speed only: nothing here must survive
        profile = profile_for(create("shiftago"))
        loop = Loop(Controller(profile, recorder=store), _Dark(), store=store)
        loop.start()
        loop.handle(LinkUp("fuzz"), 0.0)
        loop.handle(SensorSnapshot((0,) * profile.channel_count), 0.0)
        _BOARD["loop"] = loop
    return _BOARD["loop"]


@FUZZ
@given(lines=st.lists(_request_lines(), min_size=1, max_size=6))
def test_any_control_request_is_answered_and_the_board_plays_on(
    lines: list[bytes], caplog: pytest.LogCaptureFixture
) -> None:
    loop = _board()
    with caplog.at_level(logging.WARNING):
        for n, line in enumerate(lines):
            try:
                body = parse_request(line)
            except ValueError:
                continue  # answered "bad request" by the server
            item = _Request(body, threading.Event())
            loop.handle(item, 1.0 + n)
            assert item.reply is not None and isinstance(item.reply["ok"], bool)
            json.dumps(item.reply)  # what the server sends back
    assert loop.controller.state is not Phase.FAULT, loop.controller.status()
    assert not [r for r in caplog.records if r.exc_info], "a request ended in a traceback"
    assert loop.controller.status()["phase"] != "fault"
