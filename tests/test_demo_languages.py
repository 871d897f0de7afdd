"""``boardctl sim --demo`` narrates in the board's language ([board] language): each
sentence of every demo is a whole sentence of the catalog, the player named in it as
the language writes a sentence's start ("Blau schiebt …", "Le joueur 1 pose …")."""

from __future__ import annotations

import io
import shutil
import sys
from pathlib import Path

import pytest
from test_sim_terminal import ROOT, Terminal

from boardctl import i18n
from boardctl.sim.console import run_demo
from boardctl.sim.demo import demo_games, script
from boardctl.sim.session import Simulation

FAST = ["controller.grace_ms=300", "controller.settle_ms=80"]


@pytest.mark.parametrize("code", ["de", "fr"])
@pytest.mark.parametrize("game", demo_games())
def test_every_sentence_of_every_demo_is_translated(game: str, code: str) -> None:
    steps = script(game).steps
    with i18n.language(code):
        said = [i18n.translate(step.say) for step in steps]
    for step, text in zip(steps, said, strict=True):
        assert text != str(step.say), f"{game}: {step.say!r} is not translated into {code}"
        assert "{" not in text, text
    # each sentence begins with its player as the language writes it, no name
    # capitalised by code (a German colour is a noun, a French one is not)
    starts = {text.split()[0] for text in said}
    if game == "shiftago":
        assert starts == ({"Blau", "Rot", "das"} if code == "de" else {"Bleu", "Rouge", "le"})
    if game == "linie1":
        assert ("Spieler" if code == "de" else "Le") in starts


def test_the_shiftago_demo_is_told_in_german_to_its_end() -> None:
    s = script("shiftago")
    out = io.StringIO()
    overrides = [*s.settings, *FAST, 'board.language="de"']
    with Simulation(s.game, overrides=overrides, options=s.options) as sim:
        assert run_demo(sim, s, delay=0, out=out) == 0
    lines = out.getvalue().splitlines()
    text = "\n".join(lines)
    assert "eine Partie shiftago: das Brett ist leer und bereit" in lines[0]
    assert "] Blau schiebt bei W2 eine Kugel ein" in text
    # the mistakes, told as they happen
    assert "Blau setzt eine Kugel direkt auf d4 (Kugeln kommen nur vom Rand herein)" in text
    assert "Rot nimmt die Kugel auf a2 hoch, um sie anzusehen" in text
    assert "das Brett bleibt in der vorigen Stellung: der Zug wird zurückgenommen" in text
    assert "Blau darf a1-e1 oder a1-a5 werten: wählt a1-e1" in text
    assert lines[-1].startswith("Ergebnis: Blau (Spieler 1) gewinnt: ")
    assert lines[-1].endswith(f"nach {len(s.moves)} Zügen")
    # not one narrated sentence left in English
    for step in s.steps:
        assert f"] {step.say}" not in text, step.say


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")
def test_the_demo_on_a_german_terminal_screen(tmp_path: Path) -> None:
    env = f"PYTHONPATH={ROOT} TERM=xterm-256color LANG=C.UTF-8"
    term = Terminal(
        f"cd {tmp_path} && env {env} {sys.executable} -m boardctl.cli.main sim "
        "--demo duploline --delay 60 "
        "--set controller.grace_ms=300 --set controller.settle_ms=80 "
        '--set board.language="de"; '
        "echo sim-exited-$?; sleep 60"
    )
    try:
        # the first step's sentence stays on the screen for the pause after it,
        # under the board drawn in the same language
        term.shows("[1/19] Weiß legt eine Scheibe auf c3   > place c3 white-disc", "Brett")
        # the board drawn as text says its pieces in hand and whose turn it is in German
        term.shows("auf der Hand: Weiß: Scheiben 17, Ringe 18", "Schwarz ist dran: ")
    finally:
        term.close()


def test_a_demo_without_a_sound_card_says_so_in_the_boards_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import hardware.audio
    from boardctl.cli.main import main
    from boardctl.message import M_

    monkeypatch.setattr(hardware.audio, "can_play", lambda: M_("this machine has no sound card"))
    monkeypatch.setattr("boardctl.sim.console.run_demo", lambda sim, script, **kw: 0)
    args = ["sim", "--demo", "duploline", "--set", 'board.language="de"']
    assert main([*args, *(f"--set={s}" for s in FAST)]) == 0
    said = capsys.readouterr().err
    assert (
        "boardctl sim: dieser Rechner hat keine Soundkarte: der Ton des Bretts wird "
        "aufgezeichnet, nicht abgespielt" in said
    ), said
