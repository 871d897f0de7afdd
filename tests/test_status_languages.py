"""``boardctl status`` speaks the operator's language (the terminal's, else the board's):
the phase, the task, why the board is wrong and the command line's own words."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from terminal_support import terminal_speaks
from twin_support import daemon_at, wait_for

from boardctl import config
from boardctl.cli.main import main
from boardctl.controller.control import request
from hardware.profiles import load_profile
from hardware.sim_sensing import ScriptedSource

PROFILE = load_profile("shiftago-colour")
BLUE = 2  # the profile's code for a marble of player 0


@contextmanager
def _wrong_board(tmp_path: Path, language: str = "en") -> Iterator[Path]:
    """A daemon whose board shows a blue marble set down on d4, not pushed in."""
    source = ScriptedSource(PROFILE.channel_count)
    with daemon_at(tmp_path, PROFILE, source, f'board.language="{language}"') as sock:
        d4 = PROFILE.site("d4").channel
        assert d4 is not None
        source.set(d4, BLUE)
        wait_for(
            lambda: request(sock, {"cmd": "status"}).get("phase") == "wrong_board",
            10.0,
            "the wrong board",
        )
        yield sock


def _status(sock: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["status", "--socket", str(sock)]) == 0
    return capsys.readouterr().out


def test_status_in_german_and_french_as_the_terminal_asks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch)
    with _wrong_board(tmp_path) as sock:
        monkeypatch.setenv("LANG", "de_DE.UTF-8")
        out = _status(sock, capsys)
        assert "das Brett weicht vom Spiel ab" in out
        assert "Blau (Spieler 1) ist dran: eine Kugel einschieben" in out
        assert (
            "warum: eine Kugel wird von der Seite durch eine Bahn eingeschoben, nie auf d4 gesetzt"
            in out
        )
        assert "wegnehmen: d4" in out
        assert "es läuft boardctl" in out
        # a refusal, in the operator's language too
        assert main(["undo", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert "nichts zurückzunehmen: es wurde noch keine Aktion gespielt" in said.err + said.out

        monkeypatch.setenv("LANG", "fr_FR.UTF-8")
        out = _status(sock, capsys)
        assert "le plateau diffère de la partie" in out
        assert "à bleu (joueur 1) de jouer : pousser une bille" in out
        assert "pourquoi : une bille se pousse depuis le bord par un couloir" in out

        # JSON stays English, whatever the terminal speaks
        assert main(["status", "--json", "--socket", str(sock)]) == 0
        assert '"task": "insert a marble"' in capsys.readouterr().out


def test_status_speaks_the_boards_language_when_the_terminal_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "C.UTF-8")
    conf = tmp_path / "boardctl.toml"
    conf.write_text('[board]\nlanguage = "de"\n')
    monkeypatch.setattr(config, "DEFAULT_PATH", conf)
    with _wrong_board(tmp_path, "de") as sock:
        out = _status(sock, capsys)
    assert "Brett" in out and "warum:" in out


def test_new_help_lists_each_games_options_in_the_terminals_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    with pytest.raises(SystemExit):
        main(["new", "--help"])
    out = capsys.readouterr().out
    assert "options de chaque jeu (CLÉ=VALEUR) :" in out
    assert "players=2|3|4: combien jouent (par défaut 2)" in out
    assert "variant=express|expert: Express : le premier alignement de cinq gagne" in out


def test_an_action_written_wrong_is_refused_in_the_terminals_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch)
    with _wrong_board(tmp_path) as sock:
        monkeypatch.setenv("LANG", "de_DE.UTF-8")
        assert main(["play", "Q9", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert (
            "'Q9' ist keine Shiftago-Aktion: schreibe eine Bahn (W1..W7, E1..E7, Sa..Sg, Na..Ng)"
            in said.err + said.out
        )
        monkeypatch.setenv("LANG", "fr_FR.UTF-8")
        assert main(["play", "Q9", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert "'Q9' n'est pas une action de Shiftago : écrivez un couloir" in said.err + said.out
        # a line written with one end twice, in French and then in German
        assert main(["play", "x:a1-a1", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert (
            "'x:a1-a1' : un alignement a besoin de deux cases d'extrémité différentes"
            in said.err + said.out
        )
        monkeypatch.setenv("LANG", "de_DE.UTF-8")
        assert main(["play", "x:a1-a1", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert "'x:a1-a1': eine Reihe braucht zwei verschiedene Endfelder" in said.err + said.out


@pytest.mark.parametrize("command", [["brightness"], ["schedule"], ["sound"]])
def test_the_operators_settings_answer_a_germanterminal_speaks(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    command: list[str],
) -> None:
    """The command line asks every answer in the operator's language: a command that
    checks its keys must not take that for a setting it lacks."""
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    with _wrong_board(tmp_path) as sock:
        code = main([*command, "--socket", str(sock)])
        said = capsys.readouterr()
        assert code == 0, said.err
        assert "language" not in said.err


def test_seats_written_wrong_are_refused_in_the_terminals_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch)
    with _wrong_board(tmp_path) as sock:
        monkeypatch.setenv("LANG", "de_DE.UTF-8")
        assert main(["new", "shiftago", "seats=hands,computer:9", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert (
            "Platz 'computer:9': die Stufe des Computers ist eine Zahl von 1 bis 5, "
            "z. B. computer:3" in said.err + said.out
        )
        monkeypatch.setenv("LANG", "fr_FR.UTF-8")
        assert main(["new", "shiftago", "seats=hands,hands,hands", "--socket", str(sock)]) != 0
        said = capsys.readouterr()
        assert (
            "les places 'hands,hands,hands' nomment 3 places, et cette partie de shiftago "
            "a 2 joueurs : nommez une place par joueur" in said.err + said.out
        )


def test_the_simulators_seats_written_wrong_are_refused_in_the_terminals_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    assert main(["sim", "shiftago", "--seats", "robot"]) != 0
    said = capsys.readouterr()
    assert (
        "--seats robot: Platz 'robot': ein Platz wird von Händen gespielt, vom Computer auf "
        "einer Stufe oder an einem anderen Brett" in said.err + said.out
    )


def test_the_simulators_other_refusals_are_said_in_the_terminals_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    assert main(["sim", "shiftago", "--delay", "-1"]) != 0
    said = capsys.readouterr()
    assert "--delay -1.0 : indiquez 0 seconde ou plus" in said.err + said.out


def test_a_record_with_a_bad_move_is_refused_in_the_terminals_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    record = tmp_path / "bad.json"
    record.write_text('{"game": "shiftago", "moves": ["W3", "Q9"]}\n', encoding="utf-8")
    assert main(["rules", "replay", str(record)]) != 0
    said = capsys.readouterr()
    assert "Zug 2 ('Q9'): 'Q9' ist keine Shiftago-Aktion" in said.err + said.out
