"""The installer's tools in the operator's language (the terminal's, else the board's):
a board profile's faults, the LED walk, the live sensor table and the calibration."""

from __future__ import annotations

import io
import re
import shutil
from pathlib import Path

import pytest
from terminal_support import terminal_speaks

from boardctl.cli.main import main
from hardware.profiles import load_profile


def _terminal(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    terminal_speaks(monkeypatch, lang)
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", Path("/nonexistent/boardctl.toml"))


def _broken_profile(tmp_path: Path) -> Path:
    """shiftago-colour with an unknown key and no LEDs: two faults, on lines 28 and 29."""
    text = Path(load_profile("shiftago-colour").source).read_text()
    text = text.replace("[leds]\n", "[leds]\nshine = 3\n", 1)
    text = re.sub(r"^count = \d+", "count = 0", text, count=1, flags=re.M)
    path = tmp_path / "mine.toml"
    path.write_text(text)
    return path


def test_a_board_profiles_faults_in_german_and_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _broken_profile(tmp_path)
    _terminal(monkeypatch, "de_DE.UTF-8")
    assert main(["profile", "check", str(path)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{path}: 2 Fehler im Brettprofil",
        f"  {path}:28: leds.shine: unbekannter Schlüssel; die Schlüssel hier sind count, "
        "backend, order, brightness, gamma, max_milliamps, milliamps_per_led, settings",
        f"  {path}:29: leds.count: falscher Wert 0; erwartet: eine Anzahl LEDs, 1 bis 4096",
    ]
    _terminal(monkeypatch, "fr_FR.UTF-8")
    assert main(["profile", "check", str(path), "shiftago-colour"]) == 2
    said = capsys.readouterr()
    assert said.err.splitlines()[0] == f"{path} : 2 problèmes dans le profil du plateau"
    assert f"{path}:29 : leds.count : mauvaise valeur 0 ; attendu : un nombre de LED" in said.err
    assert ": correct : shiftago-colour (shiftago), 77 cases, 49 détectées par serial" in said.out
    # the daemon refuses it in the same words, naming the configuration's key
    assert main(["config", "show", "--set", f'board.profile="{path}"']) == 2
    assert "2 problèmes dans le profil du plateau" in capsys.readouterr().err


def test_the_led_walk_in_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _terminal(monkeypatch, "fr_FR.UTF-8")
    argv = ["test", "leds", "shiftago-colour", "--sim", "--delay", "0", "--site", "d4"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    named = [line for line in out.splitlines() if line.startswith("d4: ")]
    assert named == ["d4: rouge", "d4: vert", "d4: bleu", "d4: blanc"]
    assert out.rstrip().endswith("4 étapes sur 1 case")


def test_the_sensor_table_in_german_keeps_its_columns(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _terminal(monkeypatch, "de_DE.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("d4 p0\nzz9 2\nd4 x9\nq\n"))
    assert main(["test", "sensors", "shiftago-colour", "--sim"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("simulierte Sensoren: tippe 'FELD WERT' (a1 2), 'FELD' zum Umschalten")
    assert err.splitlines() == [
        "? kein Feld 'zz9' auf shiftago-colour: tippe ein Feld und einen Wert, z. B. a1 1, oder q",
        "? Wert x9? gib einen Spielsteinnamen (p0, p1, p2, p3) oder die rohe Sensorzahl an",
    ]
    head = "Feld     Kanal   roh  Messwert\n"
    assert head in out
    rows = out.split(head)[-1].splitlines()
    d4 = next(line for line in rows if line.startswith("d4 "))
    # each value under its heading, whatever the headings' lengths in German
    assert d4.index("p0") == head.index("Messwert")
    assert d4[: head.index("Kanal") + len("Kanal")].rstrip().endswith("24")


def test_the_calibration_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _terminal(monkeypatch, "de_DE.UTF-8")
    path = tmp_path / "cheap.toml"
    shutil.copy(load_profile("shiftago-presence").source, path)
    assert main(["calibrate", str(path), "--sim", "--timeout", "5"]) == 0
    out = capsys.readouterr().out
    assert "[1/77] stelle einen Spielstein auf " in out and " (leuchtet)\n" in out
    assert " ist Kanal 0: nimm den Spielstein weg\n" in out
    assert "fertig: 77 Felder kalibriert\n" in out
    assert f"77 Kanäle nach {path} geschrieben (die alte Datei ist {path}.bak)" in out


def test_a_missing_library_is_explained_in_german(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What the installer must do on the Pi, in the installer's language."""
    _terminal(monkeypatch, "de_DE.UTF-8")
    monkeypatch.setitem(__import__("sys").modules, "spidev", None)  # not installed
    assert main(["test", "leds", "shiftago-presence", "--delay", "0"]) == 2
    assert capsys.readouterr().err == (
        "boardctl: die SPI-LEDs lassen sich nicht starten: spidev ist nicht installiert (auf dem "
        "Pi: pip install spidev, oder apt install python3-spidev); um es ohne das Brett zu "
        "probieren, füge --sim hinzu\n"
    )
