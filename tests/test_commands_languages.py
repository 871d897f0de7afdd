"""Every command the command line sends to the daemon works from a German and a French
terminal as it does from an English one.

The command line asks each answer in the operator's language (the request carries
``"language"``); a command that checks its request's keys strictly would take that for
a setting it lacks and refuse it, only for operators who do not read English. So the
same commands run, one after another, against two daemons alike, one asked from an
English terminal and one from a German (or French) one: each must end the same way.
"""

from __future__ import annotations

import argparse
import contextlib
from pathlib import Path

import pytest
from terminal_support import terminal_speaks
from twin_support import daemon_at

from boardctl import config
from boardctl.cli.main import build_parser, main
from boardctl.controller import control
from hardware.profiles import load_profile
from hardware.sim_sensing import ScriptedSource

PROFILE = load_profile("shiftago-colour")

#: each command that talks to the daemon, with what it is given; those marked True
#: succeed on a fresh Shiftago board, the others are refused in every language alike
#: (nothing to choose, no chance in Shiftago, no broker for remote play)
COMMANDS: list[tuple[list[str], bool]] = [
    (["status"], True),
    (["new", "shiftago", "players=2", "seats=hands,hands"], True),
    (["play", "W1"], True),
    (["undo"], True),
    (["another"], False),
    (["choose", "1"], False),
    (["roll", "d4"], False),
    (["games"], True),
    (["export"], False),
    (["accept"], False),
    (["decline", "table-2"], False),
    (["brightness"], True),
    (["brightness", "0.3"], True),
    (["brightness", "default"], True),
    (["schedule"], True),
    (["schedule", "mon-fri 10:00-18:00"], True),
    (["schedule", "always"], True),
    (["schedule", "default"], True),
    (["sound"], True),
    (["sound", "--cues", "off", "--voice", "on", "--volume", "40", "--quiet", "never"], True),
    (["sound", "--volume", "default", "--quiet", "default"], True),
    (["sound", "--check"], True),
]


def _daemon_commands() -> set[str]:
    """The subcommands that talk to the daemon: those with a control socket to name."""
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {
        name
        for name, p in sub.choices.items()
        if any("--socket" in a.option_strings for a in p._actions)
    }


def test_every_command_that_talks_to_the_daemon_is_tried() -> None:
    assert _daemon_commands() == {argv[0] for argv, _ in COMMANDS}


def _daemon(tmp_path: Path) -> contextlib.AbstractContextManager[Path]:
    return daemon_at(tmp_path, PROFILE, ScriptedSource(PROFILE.channel_count))


def _run_all(
    tmp_path: Path,
    lang: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    sent: list[dict[str, object]],
) -> list[tuple[int, str]]:
    monkeypatch.setenv("LANG", lang)
    ends = []
    with _daemon(tmp_path) as sock:
        for argv, _ in COMMANDS:
            code = main([*argv, "--socket", str(sock)])
            ends.append((code, capsys.readouterr().err))
    return ends


@pytest.mark.parametrize(
    ("lang", "code"), [("de_DE.UTF-8", "de"), ("fr_FR.UTF-8", "fr")], ids=["de", "fr"]
)
def test_every_command_ends_the_same_from_a_terminal_in_another_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    code: str,
) -> None:
    terminal_speaks(monkeypatch)
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "none.toml")
    sent: list[dict[str, object]] = []
    ask = control.request

    def recorded(path: object, body: dict[str, object], *a: object, **k: object) -> object:
        sent.append(body)
        return ask(path, body, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(control, "request", recorded)
    english = _run_all(tmp_path / "en", "C.UTF-8", capsys, monkeypatch, sent)
    asked = len(sent)
    other = _run_all(tmp_path / code, lang, capsys, monkeypatch, sent)

    # the other terminal's requests asked for its language; the English ones for none other
    assert all(body.get("language", "en") == "en" for body in sent[:asked])
    assert all(body.get("language") == code for body in sent[asked:])
    for (argv, succeeds), (en_code, en_err), (code_there, err) in zip(
        COMMANDS, english, other, strict=True
    ):
        assert (en_code == 0) == succeeds, f"{argv} in English: {en_err}"
        assert code_there == en_code, f"{argv} from {lang}: {err} (in English: {en_err!r})"
        assert "'language'" not in err, f"{argv} from {lang}: {err}"


def test_the_answers_read_in_german_and_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the commands print besides ``status``: the venue's settings as a table
    (labels aligned in each language), an action played and taken back, the games."""
    terminal_speaks(monkeypatch)
    monkeypatch.setattr(config, "DEFAULT_PATH", tmp_path / "none.toml")
    said = {}
    with _daemon(tmp_path) as sock:
        for lang in ("de_DE.UTF-8", "fr_FR.UTF-8"):
            monkeypatch.setenv("LANG", lang)
            for argv in (
                ["brightness", "0.3"],
                ["schedule", "mon-sun 00:00-24:00"],
                ["play", "W1"],
                ["undo"],
                ["games"],
            ):
                assert main([*argv, "--socket", str(sock)]) == 0
                said[lang[:2], argv[0]] = capsys.readouterr().out
            monkeypatch.setenv("LANG", "C.UTF-8")
            assert main(["schedule", "default", "--socket", str(sock)]) == 0
            capsys.readouterr()
    assert said["de", "brightness"].splitlines()[0] == "Helligkeit     0.3"
    assert said["de", "schedule"].splitlines()[1] == ("Öffnungszeiten 00:00-24:00 (geöffnet)")
    assert said["de", "play"] == "gespielt: W1\n"
    assert said["de", "undo"] == "zurückgenommen: W1\n"
    # the game under way: its number, name, how it stands, when it began, its moves
    game = said["de", "games"].split()
    assert game[:3] == ["1", "shiftago", "läuft"] and game[-2:] == ["0", "Züge"], game
    assert said["fr", "brightness"].splitlines()[0] == "luminosité 0.3"
    assert said["fr", "schedule"].splitlines()[1] == "horaires   00:00-24:00 (ouvert)"
    assert said["fr", "play"] == "joué : W1\n"
    assert said["fr", "undo"] == "repris : W1\n"
    game = said["fr", "games"].split()
    assert game[:4] == ["1", "shiftago", "en", "cours"] and game[-2:] == ["0", "coup"], game
