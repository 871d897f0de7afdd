"""``boardctl --help``, every command's help and argparse's own complaints in the
operator's language (the terminal's, else the board's)."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal_support import terminal_speaks

from boardctl import i18n
from boardctl.cli.main import build_parser, main
from boardctl.message import Message


def _parsers(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = ()
) -> Iterator[tuple[tuple[str, ...], argparse.ArgumentParser]]:
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


def _help(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as ended:
        main([*argv, "--help"])
    assert ended.value.code == 0
    return capsys.readouterr().out


def test_every_help_text_of_every_command_is_marked_and_translated() -> None:
    """A command or option added with an English help only would be shown in English
    to everyone: each help, description and section title is marked, and German has it."""
    unmarked, untranslated = [], []
    german = i18n.translation("de")
    for path, parser in _parsers(build_parser()):
        texts = [parser.description]
        texts += [a.help for a in parser._actions if a.help is not argparse.SUPPRESS]
        texts += [g.title for g in parser._action_groups]
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                texts += [c.help for c in action._choices_actions]
        for text in texts:
            if not text or text in ("positional arguments", "options"):
                continue  # argparse's own (translated by test_argparse_speaks...)
            if text == "show this help message and exit" or text.startswith("show program's"):
                continue
            where = f"boardctl {' '.join(path)}: {text!r}"
            if not isinstance(text, Message):
                unmarked.append(where)
            elif german.gettext(text.msgid) == text.msgid:
                untranslated.append(where)
    assert not unmarked, "help texts not marked with M_:\n" + "\n".join(unmarked)
    assert not untranslated, "help texts German lacks:\n" + "\n".join(untranslated)


def test_the_help_in_german_and_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    out = _help([], capsys)
    assert out.startswith("Aufruf: boardctl [-h]")
    assert "\nOptionen:\n  -h, --help     diese Hilfe zeigen und beenden\n" in out
    assert "\nBefehle:\n" in out
    assert "    new          eine neue Partie beginnen\n" in out
    out = _help(["schedule"], capsys)
    assert out.startswith("Aufruf: boardctl schedule [-h]")
    assert "Positionsargumente:" in out
    assert "'always' für immer geöffnet" in " ".join(out.split())
    out = _help(["config", "show"], capsys)
    assert "einen Schlüssel überschreiben, z. B. --set controller.settle_ms=200" in " ".join(
        out.split()
    )

    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    out = _help(["brightness"], capsys)
    assert out.startswith("usage : boardctl brightness [-h]")
    # argparse's "%%" is still a per cent sign once translated
    assert "de 0 à 1 (0.3 vaut 30 %), ou 'default' pour [leds]" in " ".join(out.split())
    out = _help(["rules", "think"], capsys)
    assert "Affiche le coup que l'ordinateur jouerait" in out


def test_argparse_speaks_the_operators_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    with pytest.raises(SystemExit) as ended:
        main(["roll"])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("Aufruf: boardctl roll [-h]")
    assert err.endswith("boardctl roll: Fehler: diese Argumente sind nötig: action\n")

    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["sound", "--cues", "maybe"])
    assert capsys.readouterr().err.endswith(
        "boardctl sound : erreur : argument --cues : choix non valide : 'maybe' "
        "(choisissez parmi 'on', 'off', 'default')\n"
    )
    with pytest.raises(SystemExit):
        main(["status", "--bogus"])
    assert capsys.readouterr().err.endswith(
        "boardctl : erreur : arguments non reconnus : --bogus\n"
    )


def test_the_help_follows_the_boards_language_when_the_terminal_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "C.UTF-8")
    board = tmp_path / "boardctl.toml"
    board.write_text('[board]\nlanguage = "fr"\n')
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", board)
    assert "  --json           afficher la réponse JSON brute" in _help(["status"], capsys)
    # English where the terminal asks for it, whatever the board speaks
    terminal_speaks(monkeypatch, "en_GB.UTF-8")
    assert "  --json           print the raw JSON answer" in _help(["status"], capsys)


def test_argparse_speaks_english_again_after_parsing() -> None:
    """The parser lends argparse boardctl's words only while it parses."""
    build_parser().parse_args(["status"])
    assert argparse._("usage: ") == "usage: "  # type: ignore[attr-defined]
