"""The operator's texts around the game in the operator's language (the terminal's,
else the board's): a configuration's fault as ``boardctl config show`` (and the
daemon, on the same path) prints it, with its file, line and fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from boardctl.cli.main import main


def _terminal(monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", lang)


@pytest.mark.parametrize(
    ("lang", "out_of_range", "unknown_key"),
    [
        (
            "de_DE.UTF-8",
            "[sound] volume: 400 liegt außerhalb des Bereichs; nimm 0 bis 100",
            "[sound] loud: unbekannter Schlüssel; [sound] hat ",
        ),
        (
            "fr_FR.UTF-8",
            "[sound] volume : 400 est hors limites ; utilisez 0 à 100",
            "[sound] loud : clé inconnue ; [sound] a ",
        ),
        (
            "C.UTF-8",
            "[sound] volume: 400 is out of range; use 0 to 100",
            "[sound] loud: unknown key; [sound] has ",
        ),
    ],
)
def test_a_configurations_fault_in_the_terminals_language(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lang: str,
    out_of_range: str,
    unknown_key: str,
) -> None:
    _terminal(monkeypatch, lang)
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "none.toml")
    bad = tmp_path / "boardctl.toml"
    bad.write_text("[sound]\nvolume = 400\n")
    assert main(["config", "show", "--config", str(bad)]) == 2
    assert capsys.readouterr().err == f"boardctl: {bad}:2: {out_of_range}\n"
    bad.write_text("[board]\n\n[sound]\nloud = true\n")
    assert main(["config", "show", "--config", str(bad)]) == 2
    assert capsys.readouterr().err.startswith(f"boardctl: {bad}:4: {unknown_key}")


def test_a_fault_follows_the_boards_language_when_the_terminal_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _terminal(monkeypatch, "C.UTF-8")
    board = tmp_path / "boardctl.toml"
    board.write_text('[board]\nlanguage = "de"\n')
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", board)
    assert main(["config", "show", "--set", "controller.settle_ms=true"]) == 2
    err = capsys.readouterr().err
    assert err == "boardctl: --set: [controller] settle_ms: muss eine ganze Zahl sein, nicht True\n"


@pytest.mark.parametrize(
    ("code", "note", "fault"),
    [
        (
            "de",
            "kein Lautsprecher: [sound] device ist leer (die Webseiten können den Ton spielen)",
            "no-such-aplay ist nicht installiert: installiere alsa-utils",
        ),
        (
            "fr",
            "pas de haut-parleur : [sound] device est vide (les pages web peuvent jouer le son)",
            "no-such-aplay n'est pas installé : installez alsa-utils",
        ),
    ],
)
def test_the_speakers_faults_in_the_operators_language(code: str, note: str, fault: str) -> None:
    """What `boardctl sound` and the operator page show of the speaker: why there is
    none, and what went wrong playing (English in the log)."""
    from boardctl import i18n
    from boardctl.cli.sound_cmds import _table
    from boardctl.message import said
    from hardware.audio import open_speaker
    from hardware.audio.aplay import AplayOutput
    from hardware.audio.base import AudioError, Clip

    output, why = open_speaker("")
    assert output is None and why is not None
    with pytest.raises(AudioError) as failed:
        AplayOutput(command=["no-such-aplay"]).play(Clip("cue", "x", wav=b"RIFF"))
    assert str(failed.value).startswith("no-such-aplay is not installed")
    sound = {"cues": True, "voice": False, "volume": 70, "quiet": "", "speaker": False}
    with i18n.language(code):
        lines = _table({**sound, "note": why, "fault": said(failed.value)}, check=False)
    assert lines[-2].strip().startswith(fault)
    assert lines[-1].strip() == note
