"""The terminal simulator speaks the board's language ([board] language): a person in
a real terminal (tmux) plays a move, makes a mistake and reads it all in German, or in
French."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from test_sim_terminal import ROOT, Terminal

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


def _sim(tmp_path: Path, language: str, game: str = "") -> Terminal:
    env = f"PYTHONPATH={ROOT} TERM=xterm-256color LANG=C.UTF-8"
    return Terminal(
        f"cd {tmp_path} && env {env} {sys.executable} -m boardctl.cli.main sim {game} "
        "--set controller.grace_ms=300 --set controller.settle_ms=80 "
        f'--set board.language="{language}"; '
        "echo sim-exited-$?; sleep 60"
    )


@pytest.fixture
def german(tmp_path: Path) -> Iterator[Terminal]:
    term = _sim(tmp_path, "de")
    try:
        yield term
    finally:
        term.close()


@pytest.fixture
def french(tmp_path: Path) -> Iterator[Terminal]:
    term = _sim(tmp_path, "fr")
    try:
        yield term
    finally:
        term.close()


def test_the_simulator_in_german(german: Terminal) -> None:
    german.shows("Blau (Spieler 1) ist dran: eine Kugel einschieben", "das Brett stimmt")
    german.shows("tippe, was die Hände tun")
    german.type("insert W1")
    german.shows(
        "Rot (Spieler 2) ist dran: eine Kugel einschieben",
        "Züge (1): W1",
        # the board drawn as text, its line under it in German
        "Rot ist dran: einschieben · Kugeln übrig:",
        "Blau 21, Rot 22",
        "Steuerung: wartet auf einen Zug",
    )
    german.type("place d4 red")
    german.shows(
        "FALSCHES BRETT: eine Kugel wird von der Seite durch eine Bahn eingeschoben",
        "wegnehmen oder richten: d4",
    )
    german.type("lift d4")
    german.wait_for(lambda t: "das Brett stimmt" in t and "FALSCHES" not in t, "the board right")
    german.type("quit")
    german.shows("sim-exited-0")


def test_the_simulator_in_french(french: Terminal) -> None:
    french.shows("à bleu (joueur 1) de jouer : pousser une bille", "le plateau est juste")
    french.type("insert W1")
    french.shows(
        "à rouge (joueur 2) de jouer : pousser une bille",
        "coups (1) : W1",
        "billes restantes",
        "bleu 21, rouge 22",
    )
    french.type("place d4 red")
    french.shows("PLATEAU ERRONÉ : une bille se pousse depuis le bord", "retirer ou corriger : d4")
    french.type("quit")
    french.shows("sim-exited-0")


def test_the_hands_commands_written_wrong_are_told_in_german(german: Terminal) -> None:
    german.shows("Blau (Spieler 1) ist dran: eine Kugel einschieben")
    german.type("place d4")
    # the words to type stay as the hands read them (place, blue), the rest is German
    german.shows("place d4: schreibe place FELD STEIN, z. B. place d4 blue")
    # and the help under it, the commands as they are typed
    german.shows("Hände: insert W1 [blue] | place d4 blue", "Brett: new [SPIEL] [schlüssel=wert]")
    german.type("lift e5")
    german.shows("lift e5: auf e5 liegt nichts zum Abheben")
    german.type("insert Q9")
    german.shows("insert Q9: 'Q9' ist keine Bahn: die Bahnen sind")
    german.type("place d4 purple")
    german.shows("place d4 purple: 'purple' ist kein Stein dieses Spiels: schreibe blue, red")
    german.type("wave d4")
    german.shows("unbekannter Befehl")
    german.type("undo")
    german.wait_for(lambda t: "undo: " in t and "took" not in t and "no move" not in t, "undo")
    german.type("quit")
    german.shows("sim-exited-0")


def test_the_hands_commands_written_wrong_are_told_in_french(french: Terminal) -> None:
    french.shows("à bleu (joueur 1) de jouer : pousser une bille")
    french.type("move d4")
    french.shows("move d4 : écrivez move DE VERS, p. ex. move d4 e4")
    french.type("lift e5")
    french.shows("lift e5 : il n'y a rien à soulever sur e5")
    french.type("quit")
    french.shows("sim-exited-0")


def test_a_part_is_lifted_by_its_name_in_the_boards_language(tmp_path: Path) -> None:
    """The refusals name the parts in German ("weiße Scheibe oder weißer Ring"): the
    hands take those words back."""
    term = _sim(tmp_path, "de", "duploline")
    try:
        term.shows("Weiß (Spieler 1) ist dran")
        term.type("place d4 white-disc")
        term.shows("place d4 white-disc: erledigt")
        term.type("place d4 white-ring")
        term.shows("place d4 white-ring: erledigt")
        term.type("lift d4 Stein")
        term.shows("lift d4 Stein: „Stein“ liegt nicht auf d4: auf d4 liegen weiße Scheibe oder")
        term.type("lift d4 Scheibe")
        term.shows("lift d4 Scheibe: erledigt")
        term.type("quit")
        term.shows("sim-exited-0")
    finally:
        term.close()
