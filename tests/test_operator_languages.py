"""The operator's texts around the game in the operator's language (the terminal's,
else the board's): a configuration's fault as ``boardctl config show`` (and the
daemon, on the same path) prints it, with its file, line and fix."""

from __future__ import annotations

from pathlib import Path

import pytest
from terminal_support import terminal_speaks

from boardctl.cli.main import main


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
    terminal_speaks(monkeypatch, lang)
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
    terminal_speaks(monkeypatch, "C.UTF-8")
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


#: faults of every kind the configuration checks, each as a file's lines (or --set
#: flags), with the line the fault is on and what it says in German and in French
FAULTS = [
    (
        ["--set", "controller"],
        None,
        "--set 'controller': schreibe Abschnitt.Schlüssel=Wert, z. B. --set "
        "controller.settle_ms=200",
        "--set 'controller' : écrivez section.clé=valeur, p. ex. --set controller.settle_ms=200",
    ),
    (
        '[leds]\npalette = ["#e69f00", "orange"]\n',
        2,
        "[leds] palette: Farbe 2 'orange' muss als #rrggbb geschrieben werden",
        "[leds] palette : la couleur 2 'orange' doit s'écrire #rrggbb",
    ),
    (
        ["--set", 'leds.palette=["#e69f00", "#ff00ff"]'],
        None,
        "--set: [leds] palette: Farbe 2: #ff00ff sieht aus wie das Magenta, in dem Fehler "
        "blinken; wähle eine andere für diesen Spieler",
        "--set: [leds] palette : couleur 2 : #ff00ff ressemble au magenta dans lequel "
        "clignotent les erreurs ; choisissez-en une autre pour ce joueur",
    ),
    (
        '[control]\nmode = "0666"\n',
        2,
        "[control] mode: mit '0666' kann jeder Benutzer dieses Rechners das Brett steuern; "
        'nimm "0600"',
        "[control] mode : '0666' permet à tout utilisateur de cette machine de commander le "
        'plateau ; utilisez "0600"',
    ),
    (
        '[web]\nlisten = "0.0.0.0:8080"\n',
        2,
        "[web] listen = '0.0.0.0:8080' öffnet die Seiten für das Netz: setze password_hash",
        "[web] listen = '0.0.0.0:8080' ouvre les pages au réseau : définissez password_hash",
    ),
    (
        '[schedule]\nhours = "mon-fri 10:00-18:00; sam 09:00-12:00"\n',
        2,
        "[schedule] hours: 'sam 09:00-12:00': 'sam' ist kein Tag; schreibe mon, tue",
        "[schedule] hours : 'sam 09:00-12:00' : 'sam' n'est pas un jour ; écrivez mon, tue",
    ),
    (
        '[mqtt]\nbroker = "http://hub:1883"\n',
        2,
        "[mqtt] broker: 'http://hub:1883' ist keine Broker-Adresse: sie beginnt mit mqtt://",
        "[mqtt] broker : 'http://hub:1883' n'est pas l'adresse d'un broker : elle commence par",
    ),
    (
        '[sound]\nquiet = "22:00"\n',
        2,
        "[sound] quiet: '22:00': schreibe die Uhrzeiten als Öffnung-Schluss, z. B. "
        '10:00-18:00; z. B. "22:00-08:00", oder "" für nie still',
        "[sound] quiet : '22:00' : écrivez les heures comme ouverture-fermeture, p. ex. "
        '10:00-18:00 ; p. ex. "22:00-08:00", ou "" pour jamais silencieux',
    ),
    (
        '[sound]\ndevice = "my speaker"\n',
        2,
        "[sound] device: 'my speaker' ist kein ALSA-Gerätename",
        "[sound] device : 'my speaker' n'est pas un nom de périphérique ALSA",
    ),
    (
        '[board]\nprofile = "shiftago-wood"\n',
        2,
        "[board] profile: 'shiftago-wood': dieses Profil gibt es nicht; mitgeliefert sind ",
        "[board] profile : 'shiftago-wood' : ce profil n'existe pas ; ceux fournis sont ",
    ),
    (
        '[board]\nprofile = "shiftago-colour"\ngame = "duploline"\n',
        3,
        "[board] game: dieses Brett (",
        "[board] game : ce plateau (",
    ),
    (
        "[board]\nprofile = 'bad.toml'\n",
        None,
        "bad.toml: 1 Fehler im Brettprofil",
        "bad.toml : 1 problème dans le profil du plateau",
    ),
]


@pytest.mark.parametrize(("lines", "line", "german", "french"), FAULTS)
def test_every_configuration_fault_in_german_and_french(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    lines: str | list[str],
    line: int | None,
    german: str,
    french: str,
) -> None:
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "none.toml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.toml").write_text("[board\n")  # a board profile that is not TOML
    conf = tmp_path / "boardctl.toml"
    if isinstance(lines, list):
        argv = ["config", "show", *lines]
        where = ""
    else:
        conf.write_text(lines)
        argv = ["config", "show", "--config", str(conf)]
        where = f"{conf}:{line}: " if line else ""
    for lang, words in (("de_DE.UTF-8", german), ("fr_FR.UTF-8", french)):
        terminal_speaks(monkeypatch, lang)
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.startswith("boardctl: "), err
        assert f"{where}{words}" in err, err


def test_the_web_pages_addresses_and_password_in_german_and_french(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "none.toml")
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    assert main(["web", "address", "--listen", "127.0.0.1:8080"]) == 0
    lines = capsys.readouterr().out.splitlines()
    # the pages as the pages name themselves in German, their addresses in one column
    assert lines[:3] == [
        "Brett live   http://127.0.0.1:8080/",
        "Punktetafel  http://127.0.0.1:8080/score",
        "Betreuung    http://127.0.0.1:8080/operator",
    ]
    assert lines[3].startswith("(nur dieser Rechner: Telefone erreichen ihn nicht")
    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO("short\n"))
    assert main(["web", "password", "--stdin"]) == 2
    assert capsys.readouterr().err == (
        "boardctl: utilisez un mot de passe de 8 caractères ou plus\n"
    )


def test_the_service_install_says_what_comes_next_in_german(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "none.toml")
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    root = tmp_path / "root"
    assert main(["service", "install", "--root", str(root), "--boardctl", "/usr/bin/boardctl"]) == 0
    out = capsys.readouterr().out
    assert "\ndanach, als root:\n" in out
    assert "# legt den Benutzer boardctl und seine Gruppen an\n" in out
    assert out.endswith("dann verfolge ihn mit: journalctl -u boardctl -f\n")
    assert f"{root}/etc/systemd/system/boardctl.service geschrieben\n" in out


RECORD = (
    Path(__file__).parent / "records" / "shiftago" / "expert_2p_out_of_marbles_most_points.json"
)


def test_a_game_records_replay_in_german_and_french(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    assert main(["rules", "replay", str(RECORD)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "shiftago: 54 Züge ausgeführt",
        "gewonnen von Rot (Spieler 2) (Blau hat keine Kugeln mehr: Rot hat die meisten Punkte (4))",
        "Punkte: Blau 2, Rot 4",
    ]
    assert main(["rules", "show", str(RECORD), "--at", "999"]) == 2
    assert capsys.readouterr().err == (
        f"boardctl: {RECORD}: --at 999 liegt außerhalb: die Aufzeichnung hat 54 Züge\n"
    )
    terminal_speaks(monkeypatch, "fr_FR.UTF-8")
    assert main(["rules", "moves", str(RECORD)]) == 0
    assert capsys.readouterr().err == "aucune action permise : la partie est finie\n"
    assert main(["rules", "show", str(RECORD), "--at", "1"]) == 0
    assert capsys.readouterr().out.endswith(
        "shiftago : 1 coup appliqué\n"
        "à rouge (joueur 2) de jouer : insert\n"
        "points : bleu 0, rouge 0\n"
    )


@pytest.mark.parametrize(
    ("argv", "german"),
    [
        (["sound", "--volume", "loud"], "--volume 'loud': gib eine ganze Zahl von 0 bis 100 an"),
        (["brightness", "bright"], "Helligkeit 'bright': gib eine Zahl von 0 bis 1 an, z. B. 0.3"),
        (["new", "shiftago", "players"], "die Option 'players' muss als SCHLÜSSEL=WERT"),
    ],
)
def test_a_value_written_wrong_on_the_command_line_in_german(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    german: str,
) -> None:
    """Refused before anything is sent to the board (no daemon runs here)."""
    monkeypatch.setattr("boardctl.config.DEFAULT_PATH", tmp_path / "none.toml")
    terminal_speaks(monkeypatch, "de_DE.UTF-8")
    assert main([*argv, "--socket", str(tmp_path / "none.sock")]) == 2
    assert capsys.readouterr().err.startswith(f"boardctl: {german}")
