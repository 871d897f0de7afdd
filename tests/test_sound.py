"""The board's sound, its pure part and its worker: the cues as they sound,
what is heard from the loop's statuses and said in words (in the board's
language), the settings and quiet hours, the worker's bounded line that drops
what went stale, a speaker that is missing or a player that crashes, and
espeak-ng's rendering where it is installed."""

from __future__ import annotations

import ast
import gettext
import shutil
import sys
import threading
import wave
from array import array
from collections.abc import Iterator, Mapping
from datetime import datetime
from io import BytesIO
from pathlib import Path
from typing import Any

import pytest

from boardctl import i18n
from boardctl.config import load
from boardctl.controller.hours import OpeningHours
from boardctl.daemon.sound import Sounder
from boardctl.engines import _discover, create
from boardctl.errors import ConfigError
from boardctl.message import Message, placeholders
from boardctl.sound import cues, phrases
from boardctl.sound.cues import Cue, duration, wav_of
from boardctl.sound.notices import Board, listen, spoken
from boardctl.sound.settings import SoundError, SoundSettings
from hardware.audio import AplayOutput, Clip, RecordingAudio, Speaker, Utterance
from hardware.audio.base import AudioError, fixed, wav_seconds
from hardware.audio.espeak import Espeak, voice_of

ROOT = Path(__file__).resolve().parent.parent
ESPEAK = shutil.which("espeak-ng")
WAIT = 10.0


def _pcm(data: bytes) -> tuple[wave._wave_params, array[int]]:
    with wave.open(BytesIO(data)) as w:
        params = w.getparams()
        pcm = array("h", w.readframes(w.getnframes()))
    if sys.byteorder == "big":
        pcm.byteswap()
    return params, pcm


# -- the cues ----------------------------------------------------------------------------


@pytest.mark.parametrize("cue", list(Cue), ids=lambda c: c.value)
def test_a_cue_is_a_short_wav_that_starts_and_ends_softly(cue: Cue) -> None:
    params, pcm = _pcm(wav_of(cue, 1.0))
    assert (params.nchannels, params.sampwidth, params.framerate) == (1, 2, cues.RATE)
    seconds = len(pcm) / cues.RATE
    assert 0.05 < seconds <= 1.0, "a cue is heard at once and is over quickly"
    assert abs(seconds - duration(cue)) < 0.01
    peak = max(abs(v) for v in pcm)
    assert 0.2 * 32767 < peak <= cues.PEAK * 32767 + 1, "loud enough, never clipped"
    # no click: it rises from silence and falls back to it
    edge = 4
    assert max(abs(v) for v in pcm[:edge]) < 0.05 * peak
    assert max(abs(v) for v in pcm[-edge:]) < 0.05 * peak


def test_every_cue_sounds_different_from_every_other() -> None:
    heard = {c: (tuple(round(n.hz) for n in cues.NOTES[c]), duration(c)) for c in Cue}
    assert len(set(heard.values())) == len(Cue)
    # a wrong board is low, a player's turn rises, the computer's bell is one chord
    assert max(n.hz for n in cues.NOTES[Cue.WRONG]) < 300
    turn = cues.NOTES[Cue.YOUR_TURN]
    assert turn[1].hz > turn[0].hz


def test_the_volume_scales_a_cue_and_zero_is_silence() -> None:
    loud = max(abs(v) for v in _pcm(wav_of(Cue.WIN, 1.0))[1])
    soft = max(abs(v) for v in _pcm(wav_of(Cue.WIN, 0.25))[1])
    assert abs(soft / loud - 0.25) < 0.01
    assert not any(_pcm(wav_of(Cue.WIN, 0.0))[1])


def test_the_pages_get_the_same_notes() -> None:
    notes = cues.notes_json()
    assert set(notes) == {c.value for c in Cue}
    assert [n["hz"] for n in notes["win"]] == [n.hz for n in cues.NOTES[Cue.WIN]]


# -- what is heard -------------------------------------------------------------------------

BOARD = Board(
    players=("blue", "red"),
    pieces={"p0": "blue marble", "p1": "red marble"},
    sensed={"c3": "p0", "d4": "p1"},
)


def _status(**kw: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "game": "shiftago",
        "options": {"players": 2},
        "phase": "awaiting_move",
        "moves": [],
        "to_move": 0,
        "status": "playing",
        "winner": None,
        "scores": None,
    }
    base.update(kw)
    return base


def _hear(*statuses: Mapping[str, Any]) -> list[list[tuple[str | None, str | None]]]:
    """What each status after the first makes heard: (cue, sentence) pairs."""
    heard, _ = listen(None, statuses[0], BOARD)
    out = []
    for status in statuses[1:]:
        heard, notices = listen(heard, status, BOARD)
        out.append(
            [
                (n.cue.value if n.cue else None, n.phrase.text() if n.phrase else None)
                for n in notices
            ]
        )
    return out


def test_nothing_is_said_of_what_the_board_finds_when_it_starts() -> None:
    _, notices = listen(None, _status(moves=["W1"], to_move=1), BOARD)
    assert notices == ()


def test_an_action_accepted_then_the_next_players_turn() -> None:
    said = _hear(
        _status(phase="setup", to_move=0),
        _status(),
        _status(phase="move_in_progress"),
        _status(moves=["W3"], to_move=1),
    )
    assert said == [
        [("your_turn", "Blue to play")],
        [],
        [("accepted", None), ("your_turn", "Red to play")],
    ]


def test_a_score_is_said_with_the_player_and_the_points() -> None:
    said = _hear(
        _status(moves=["W1"], scores=[0, 0], to_move=1),
        _status(moves=["W1", "E2"], scores=[0, 2], to_move=0),
    )
    assert ("accepted", None) in said[0]
    assert (None, "Red scores 2 points") in said[0]
    one = _hear(_status(scores=[0, 0]), _status(moves=["W1"], scores=[1, 0], to_move=1))
    assert (None, "Blue scores 1 point") in one[0]


def test_a_wrong_board_says_which_piece_to_take_off_or_put_back() -> None:
    said = _hear(_status(), _status(phase="wrong_board", offending=["c3"], restore={}))
    assert said == [[("wrong", "Take the blue marble off c3")]]
    said = _hear(_status(), _status(phase="wrong_board", offending=[], restore={"e5": "p1"}))
    assert said == [[("wrong", "Put the red marble back on e5")]]
    said = _hear(_status(), _status(phase="wrong_board", offending=["c3", "d4"]))
    assert said == [[("wrong", "Take the pieces off c3 and d4")]]
    said = _hear(_status(), _status(phase="wrong_board"))
    assert said == [[("wrong", "The board differs from the game")]]


def test_a_wrong_board_put_right_makes_its_unsaid_words_stale() -> None:
    heard, _ = listen(None, _status(), BOARD)
    heard, _ = listen(heard, _status(phase="wrong_board", offending=["c3"]), BOARD)
    assert "wrong" not in heard.over
    heard, notices = listen(heard, _status(), BOARD)
    assert "wrong" in heard.over
    assert notices == (), "the same turn is not announced again"


def test_the_turn_is_said_again_when_the_sensors_answer_after_a_fault() -> None:
    """A fault (the sensors stopped answering) makes the turn's unsaid words
    stale; when the board answers again, whose turn it is is said anew, as
    where play resumes (else a turn announced just before the fault is
    never heard)."""
    heard, _ = listen(None, _status(phase="linking"), BOARD)
    heard, notices = listen(heard, _status(), BOARD)
    assert [n.slot for n in notices] == ["turn"]
    heard, notices = listen(heard, _status(phase="fault"), BOARD)
    assert "turn" in heard.over and notices == ()
    said = _hear(_status(), _status(phase="fault"), _status(phase="linking"), _status())
    assert said == [[], [], [("your_turn", "Blue to play")]]
    # a move made while the sensors were away: the next player's turn, once
    said = _hear(_status(), _status(phase="fault"), _status(moves=["W3"], to_move=1))
    assert said == [[], [("accepted", None), ("your_turn", "Red to play")]]


def test_a_choice_is_announced_with_how_many_moves_fit() -> None:
    said = _hear(_status(), _status(phase="choosing", choices=["W1 then E1", "W1 then E2"]))
    assert said == [[("choose", "Choose one of 2 moves")]]


def test_the_computers_move_is_said_once_when_it_is_lit() -> None:
    thinking = _status(moves=["W1"], to_move=1, computer={"seat": 1, "doing": "thinking"})
    ready = _status(
        moves=["W1"], to_move=1, computer={"seat": 1, "doing": "ready", "moves": ["e3-e4"]}
    )
    said = _hear(_status(), thinking, ready, ready)
    assert said[0] == [("accepted", None)], "nobody at the board is to play"
    assert said[1] == [("computer", "The computer plays e3 to e4")]
    assert said[2] == []
    two = _status(
        moves=["W1"],
        to_move=1,
        computer={"seat": 1, "doing": "ready", "moves": ["D+a1", "a1-b1"]},
    )
    assert _hear(thinking, two) == [[("computer", "The computer plays D+a1, then a1 to b1")]]


def test_another_boards_move_is_said_with_the_boards_name() -> None:
    ready = _status(
        to_move=1, remote={"seat": 1, "board": "cafe-2", "doing": "ready", "moves": ["W2"]}
    )
    waiting = _status(to_move=1, remote={"seat": 1, "board": "cafe-2", "doing": "waiting"})
    assert _hear(waiting, ready) == [[("computer", "The player at cafe-2 plays W2")]]
    # a seat played on a phone is a person's turn
    phone = _status(to_move=1, remote={"seat": 1, "board": "", "doing": "waiting", "phone": True})
    assert _hear(_status(phase="setup"), phone) == [[("your_turn", "Red to play")]]


def test_the_end_of_a_game_is_said_once() -> None:
    won = _status(moves=["W1", "E1"], phase="game_over", status="won", winner=1, to_move=None)
    said = _hear(_status(moves=["W1"], to_move=1), won, won)
    assert said[0] == [("accepted", None), ("win", "Red wins")]
    assert said[1] == []
    drawn = _status(moves=["W1", "E1"], phase="game_over", status="draw", to_move=None)
    assert _hear(_status(moves=["W1"], to_move=1), drawn)[0][-1] == ("win", "The game is a draw")


def test_a_new_game_is_not_an_action_accepted() -> None:
    said = _hear(_status(moves=["W1", "E1"]), _status(phase="setup", moves=[]), _status())
    assert said == [[], [("your_turn", "Blue to play")]]


def test_a_player_without_a_name_is_counted_from_one() -> None:
    said = _hear(_status(phase="setup"), _status(to_move=2))
    assert said == [[("your_turn", "Player 3 to play")]]


def test_moves_are_said_in_words() -> None:
    assert spoken("e3-e4") == "e3 to e4"
    assert spoken("A:a1-b1") == "A:a1 to b1"
    assert spoken("W3") == "W3"


# -- the texts: one module, English msgids, named placeholders ------------------------------


def _calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("_", "ngettext", "gettext")
    ]


def test_every_sentence_is_a_marked_msgid_in_the_phrases_module() -> None:
    for path in [*(ROOT / "boardctl/sound").glob("*.py"), ROOT / "boardctl/daemon/sound.py"]:
        if path.name != "phrases.py":
            assert not _calls(path), f"{path.name} makes its own sentences"
    literal = 0
    for call in _calls(ROOT / "boardctl/sound/phrases.py"):
        for arg in call.args[:2] if call.func.id == "ngettext" else call.args[:1]:  # type: ignore[attr-defined]
            if isinstance(arg, ast.Constant):
                literal += 1
                assert "{}" not in arg.value and "%" not in arg.value, arg.value
            else:
                # a name filled in (a player, a piece), translated as it is given
                assert isinstance(arg, ast.Name), ast.dump(arg)
            assert not isinstance(arg, ast.JoinedStr), "no f-string inside a msgid"
    assert literal >= 15


class _Catalog(gettext.NullTranslations):
    def __init__(self, table: Mapping[str, str]) -> None:
        super().__init__()
        self.table = table

    def gettext(self, message: str) -> str:
        return self.table.get(message, message)


@pytest.fixture
def german(monkeypatch: pytest.MonkeyPatch) -> None:
    table = {
        "{player} to play": "{player} ist am Zug",
        "red": "Rot",
        "blue": "Blau",
        "The computer plays {move}": "Der Computer spielt {move}",
        "{start} to {end}": "{start} nach {end}",
    }
    english = i18n.translation

    def translation(code: str) -> gettext.NullTranslations:
        return _Catalog(table) if code == "de" else english(code)

    monkeypatch.setattr(i18n, "translation", translation)


def test_the_voice_speaks_the_boards_language(german: None) -> None:
    with i18n.language("de"):
        assert phrases.to_play("red") == "Rot ist am Zug"
        assert spoken("e3-e4") == "e3 nach e4"
    assert phrases.to_play("red") == "Red to play"
    assert voice_of("de") == "de" and voice_of("fr") == "fr-fr" and voice_of("xx") == "en"
    sounder, twin = _sounder(language=lambda: "de")
    sounder.hear(_status(phase="setup"), BOARD)
    sounder.hear(_status(to_move=1), BOARD)
    assert sounder.speaker is not None and sounder.speaker.idle(WAIT)
    assert [(p.text, p.language) for p in twin.heard if p.kind == "voice"] == [
        ("Rot ist am Zug", "de")
    ]


# -- the settings and the quiet hours ------------------------------------------------------


def test_an_operators_settings_are_checked_and_say_what_to_give() -> None:
    s = SoundSettings()
    assert s.changed({"voice": True, "volume": 30}, s) == SoundSettings(voice=True, volume=30)
    assert s.changed({"quiet": "22:00-08:00"}, s).quiet == OpeningHours.parse("22:00-08:00")
    changed = SoundSettings(cues=False, volume=10)
    assert changed.changed({"cues": None, "volume": None}, s) == s, "null: the configuration's"
    for body, words in [
        ({"volume": 101}, "0 to 100"),
        ({"volume": True}, "0 to 100"),
        ({"voice": "yes"}, "true or false"),
        ({"quiet": "25:00-08:00"}, "quiet hours"),
        ({"loud": 1}, "not 'loud'"),
    ]:
        with pytest.raises(SoundError, match=words):
            s.changed(body, s)


def test_quiet_hours_past_midnight() -> None:
    s = SoundSettings(quiet=OpeningHours.parse("22:00-08:00"))
    assert s.silent_at(0, 23 * 60) and s.silent_at(1, 7 * 60 + 59)
    assert not s.silent_at(1, 8 * 60) and not s.silent_at(2, 12 * 60)
    assert not SoundSettings().silent_at(0, 0), "no quiet hours: never quiet"


@pytest.mark.parametrize(
    "line, words",
    [
        ('quiet = "22-08"', r"\[sound\] quiet: .*22:00-08:00"),
        ("volume = 150", r"\[sound\] volume: 150 is out of range"),
        ('device = "hw 1"', r"\[sound\] device: .*aplay -L"),
        ("voice = 1", r"\[sound\] voice: must be true or false"),
    ],
)
def test_the_configurations_sound_errors_name_the_file_line_and_fix(
    tmp_path: Path, line: str, words: str
) -> None:
    path = tmp_path / "boardctl.toml"
    path.write_text(f"[sound]\ncues = true\n{line}\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=rf"{path}:3: {words}"):
        load(path)


class _Clock:
    def __init__(self, when: datetime) -> None:
        self.when = when

    def __call__(self) -> datetime:
        return self.when


def _sounder(settings: SoundSettings | None = None, **kw: Any) -> tuple[Sounder, RecordingAudio]:
    twin = RecordingAudio()
    speaker = Speaker(twin, None)
    speaker.start()
    _started.append(speaker)
    kw.setdefault("local", _Clock(datetime(2026, 11, 26, 12, 0)))
    return Sounder(settings or SoundSettings(voice=True), speaker, **kw), twin


_started: list[Speaker] = []


@pytest.fixture(autouse=True)
def _speakers_closed() -> Iterator[None]:
    yield
    while _started:
        _started.pop().close()


def test_nothing_sounds_in_the_quiet_hours(tmp_path: Path) -> None:
    clock = _Clock(datetime(2026, 11, 26, 23, 30))  # a Thursday night
    quiet = SoundSettings(voice=True, quiet=OpeningHours.parse("22:00-08:00"))
    sounder, twin = _sounder(quiet, local=clock)
    sounder.hear(_status(phase="setup"), BOARD)
    sounder.hear(_status(), BOARD)
    assert sounder.speaker is not None and sounder.speaker.idle(WAIT)
    assert twin.heard == [] and sounder.report()["heard"] == []
    clock.when = datetime(2026, 11, 27, 8, 0)  # morning: no longer quiet
    sounder.hear(_status(moves=["W1"], to_move=1), BOARD)
    assert sounder.speaker.idle(WAIT)
    assert twin.texts() == ["accepted", "your_turn", "Red to play"]
    # a clock not yet synchronised cannot tell the hours: the board sounds
    clock.when = datetime(2026, 11, 27, 23, 0)
    unsure, twin = _sounder(quiet, local=clock, synchronised=lambda: False)
    unsure.hear(_status(phase="setup"), BOARD)
    unsure.hear(_status(), BOARD)
    assert unsure.speaker is not None and unsure.speaker.idle(WAIT)
    assert twin.texts() == ["your_turn", "Blue to play"]


def test_cues_or_voice_off_leave_out_their_part() -> None:
    sounder, twin = _sounder(SoundSettings(cues=False, voice=True))
    sounder.hear(_status(phase="setup"), BOARD)
    sounder.hear(_status(), BOARD)
    assert sounder.speaker is not None and sounder.speaker.idle(WAIT)
    sounder.command({"cmd": "sound", "voice": False, "cues": True}, 0.0)
    sounder.hear(_status(moves=["W1"], to_move=1), BOARD)
    assert sounder.speaker.idle(WAIT)
    assert twin.texts() == ["Blue to play", "accepted", "your_turn"]
    reply = sounder.command({"cmd": "sound", "volume": 20}, 0.0)["sound"]
    assert reply["volume"] == 20 and reply["configured"]["volume"] == 70
    with pytest.raises(SoundError):
        sounder.command({"cmd": "sound", "volume": "loud"}, 0.0)


def test_an_operators_check_sounds_whatever_the_settings() -> None:
    sounder, twin = _sounder(SoundSettings(cues=False, voice=False))
    sounder.command({"cmd": "sound", "check": True}, 0.0)
    assert sounder.speaker is not None and sounder.speaker.idle(WAIT)
    assert twin.texts() == ["your_turn", "This is the board's voice: the speaker works"]


# -- the worker: a bounded line, stale words dropped, faults shown --------------------------


class Gate:
    """A speaker that holds each clip until the test lets it go."""

    def __init__(self) -> None:
        self.started = threading.Semaphore(0)
        self.go = threading.Semaphore(0)

    def play(self, clip: Clip) -> None:
        self.started.release()
        assert self.go.acquire(timeout=WAIT)

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_line_is_bounded_and_a_newer_word_replaces_a_stale_one() -> None:
    gate = Gate()
    twin = RecordingAudio(gate)
    speaker = Speaker(twin, None, pending=3)
    with speaker:
        speaker.say(Utterance("accepted", "accepted"))
        assert gate.started.acquire(timeout=WAIT)  # it plays; the rest must wait
        speaker.say(Utterance("turn", "your_turn", "Blue to play"))
        speaker.say(Utterance("wrong", "wrong", "Take the blue marble off c3"))
        speaker.say(Utterance("turn", "your_turn", "Red to play"))  # the older turn is stale
        speaker.say(Utterance("score", None, "Red scores 2 points"))
        speaker.say(Utterance("choice", "choose", "Choose one of 2 moves"))  # the oldest goes
        assert speaker.state()["waiting"] == 3
        speaker.withdraw(["score"])  # said no more: its subject is over
        for _ in range(10):
            gate.go.release()
        assert speaker.idle(WAIT)
    assert twin.texts() == [
        "accepted",
        "your_turn",
        "Red to play",
        "choose",
        "Choose one of 2 moves",
    ]
    assert speaker.dropped == 3


def test_the_cues_are_drawn_before_they_are_needed_at_one_volume() -> None:
    with Speaker(RecordingAudio(), None) as speaker:
        speaker.prepare(70)
        assert speaker.idle(WAIT)
        assert speaker.state()["cues_drawn"] == len(Cue)
        speaker.say(Utterance("turn", "your_turn", volume=40))  # another volume: only its own
        assert speaker.idle(WAIT)
        assert speaker.state()["cues_drawn"] == 1


def test_say_returns_at_once_while_a_clip_plays() -> None:
    gate = Gate()
    with Speaker(RecordingAudio(gate), None) as speaker:
        speaker.say(Utterance("turn", "your_turn"))
        assert gate.started.acquire(timeout=WAIT)
        for n in range(1000):  # the loop never waits on the speaker
            speaker.say(Utterance(f"s{n % 7}", "accepted"))
        assert speaker.state()["waiting"] == speaker.pending
        gate.go.release()


def _player(tmp_path: Path, body: str) -> list[str]:
    script = tmp_path / "player.py"
    script.write_text("import os, sys, time\nsys.stdin.buffer.read()\n" + body, encoding="utf-8")
    return [sys.executable, str(script)]


def test_a_failing_player_is_a_fault_shown_and_the_next_sound_is_tried(tmp_path: Path) -> None:
    flag = tmp_path / "fixed"
    player = _player(
        tmp_path,
        f"if os.path.exists({str(flag)!r}): sys.exit(0)\n"
        "sys.stderr.write('aplay: pcm_write: write error: Input/output error\\n')\n"
        "sys.exit(1)\n",
    )
    twin = RecordingAudio(AplayOutput("plughw:1,0", command=player))
    with Speaker(twin, None) as speaker:
        speaker.say(Utterance("turn", "your_turn"))
        assert speaker.idle(WAIT)
        fault = speaker.fault
        assert fault is not None and "Input/output error" in fault and "plughw:1,0" in fault
        flag.write_text("")  # the speaker is back
        speaker.say(Utterance("turn", "your_turn"))
        assert speaker.idle(WAIT)
        assert speaker.fault is None
        assert speaker.state()["played"] == 1 and speaker.state()["failed"] == 1


def test_a_crashed_player_is_named_by_its_signal(tmp_path: Path) -> None:
    player = _player(tmp_path, "os.abort()\n")
    with Speaker(AplayOutput(command=player), None) as speaker:
        speaker.say(Utterance("win", "win"))
        assert speaker.idle(WAIT)
        assert "stopped by signal 6" in (speaker.fault or "")


def test_a_hung_player_is_ended_when_the_board_stops(tmp_path: Path) -> None:
    player = _player(tmp_path, "time.sleep(120)\n")
    twin = RecordingAudio(AplayOutput(command=player))
    speaker = Speaker(twin, None)
    speaker.start()
    speaker.say(Utterance("win", "win"))
    assert twin.wait_for(lambda heard: len(heard) == 1, WAIT)
    speaker.close(timeout=WAIT)
    assert speaker._thread is not None and not speaker._thread.is_alive()
    assert speaker.fault is None, "a clip cut short at shutdown is no fault"


def test_a_missing_player_says_what_to_install() -> None:
    with Speaker(AplayOutput(command=["/nonexistent/aplay"]), None) as speaker:
        speaker.say(Utterance("win", "win"))
        assert speaker.idle(WAIT)
        assert "alsa-utils" in (speaker.fault or "")


@pytest.mark.skipif(shutil.which("aplay") is None, reason="aplay is not installed")
def test_a_machine_without_a_sound_card_is_said_to_have_no_speaker() -> None:
    from hardware.audio import sound_cards

    if sound_cards():
        pytest.skip("this machine has a sound card")
    with Speaker(AplayOutput("default"), None) as speaker:
        speaker.say(Utterance("win", "win"))
        assert speaker.idle(WAIT)
        assert "no speaker" in (speaker.fault or "")


class _Voice:
    """Renders a sentence as a cue's tones, counting the renders."""

    def __init__(self) -> None:
        self.rendered: list[str] = []

    def render(self, text: str, language: str, volume: int) -> bytes:
        self.rendered.append(text)
        return wav_of(Cue.WIN, volume / 100) + b"\0" * 0  # a real WAV of some length


def test_a_sentence_is_rendered_once_and_the_cache_is_bounded() -> None:
    voice = _Voice()
    twin = RecordingAudio()
    with Speaker(twin, voice) as speaker:
        speaker.cache.entries = 2
        for text in ["Red to play", "Blue to play", "Red to play", "Green to play", "Red to play"]:
            speaker.say(Utterance("turn" + text, None, text))
            assert speaker.idle(WAIT)
        assert voice.rendered == ["Red to play", "Blue to play", "Green to play"]
        assert len(speaker.cache) == 2
        assert all(p.seconds > 0.5 for p in twin.heard)


def test_a_voice_that_fails_is_shown_and_the_sentence_still_recorded() -> None:
    twin = RecordingAudio()
    with Speaker(twin, Espeak(command=["/nonexistent/espeak-ng"])) as speaker:
        speaker.say(Utterance("turn", "your_turn", "Red to play"))
        assert speaker.idle(WAIT)
        assert "espeak-ng" in (speaker.fault or "")
    assert twin.texts() == ["your_turn", "Red to play"]


def test_a_wav_from_a_pipe_gets_its_lengths() -> None:
    real = wav_of(Cue.ACCEPTED, 0.5)
    piped = real[:4] + b"\xff\xff\xff\x7f" + real[8:40] + b"\xff\xff\xff\x7f" + real[44:]
    assert wav_seconds(fixed(piped)) == pytest.approx(wav_seconds(real))
    assert _pcm(fixed(piped))[1] == _pcm(real)[1]
    with pytest.raises(AudioError):
        fixed(b"not a wav")


# -- espeak-ng, for real --------------------------------------------------------------------


@pytest.fixture
def espeak() -> Espeak:
    if ESPEAK is None:
        import warnings

        warnings.warn("espeak-ng is not installed: its rendering is not tested", stacklevel=1)
        pytest.skip("espeak-ng is not installed (apt-get install espeak-ng)")
    return Espeak()


@pytest.mark.parametrize(
    "language, text",
    [("en", "Red to play"), ("de", "Rot ist am Zug"), ("fr", "Rouge joue")],
)
def test_espeak_renders_a_sentence_in_each_language(
    espeak: Espeak, language: str, text: str
) -> None:
    data = espeak.render(text, language, 70)
    params, pcm = _pcm(data)
    assert params.nchannels == 1 and params.sampwidth == 2
    assert 0.4 < len(pcm) / params.framerate < 4.0
    assert max(abs(v) for v in pcm) > 1000, "it speaks, not silence"


def test_espeak_follows_the_volume(espeak: Espeak) -> None:
    loud = max(abs(v) for v in _pcm(espeak.render("Blue wins", "en", 100))[1])
    soft = max(abs(v) for v in _pcm(espeak.render("Blue wins", "en", 25))[1])
    assert soft < loud / 2


# -- which speaker plays --------------------------------------------------------------------


def test_the_sound_cards_are_read_as_the_kernel_lists_them(tmp_path: Path) -> None:
    from hardware.audio import sound_cards

    cards = tmp_path / "cards"
    cards.write_text(
        " 0 [Headphones     ]: bcm2835_headpho - bcm2835 Headphones\n"
        "                      bcm2835 Headphones\n"
        " 1 [Device         ]: USB-Audio - USB Audio Device\n"
        "                      Generic USB Audio Device at usb-3f980000.usb-1.2, full speed\n",
        encoding="utf-8",
    )
    assert sound_cards(cards) == [
        "bcm2835_headpho - bcm2835 Headphones",
        "USB-Audio - USB Audio Device",
    ]
    (tmp_path / "none").write_text("--- no soundcards ---\n", encoding="utf-8")
    assert sound_cards(tmp_path / "none") == []
    assert sound_cards(tmp_path / "missing") == []


def test_the_device_setting_chooses_the_speaker(monkeypatch: pytest.MonkeyPatch) -> None:
    import hardware.audio as audio

    speaker, note = audio.open_speaker("")
    assert speaker is None and note is not None and "device is empty" in note
    speaker, note = audio.open_speaker("plughw:1,0")
    assert isinstance(speaker, AplayOutput) and speaker.device == "plughw:1,0" and note is None
    monkeypatch.setattr(audio, "sound_cards", lambda: [])
    monkeypatch.setattr(audio, "player", lambda: "/usr/bin/aplay")
    speaker, note = audio.open_speaker("auto")
    assert speaker is None and note is not None and "no sound card" in note
    monkeypatch.setattr(audio, "sound_cards", lambda: ["bcm2835 Headphones"])
    speaker, note = audio.open_speaker("auto")
    assert isinstance(speaker, AplayOutput) and speaker.device == "default"
    monkeypatch.setattr(audio, "player", lambda: None)
    speaker, note = audio.open_speaker("auto")
    assert speaker is None and note is not None and "alsa-utils" in note


def test_a_board_without_a_speaker_still_hears_for_its_pages() -> None:
    note = "no speaker: this machine has no sound card (the web pages may play the sound)"
    sounder = Sounder(
        SoundSettings(voice=True), None, local=_Clock(datetime(2026, 1, 1, 12)), note=note
    )
    sounder.hear(_status(phase="setup"), BOARD)
    sounder.hear(_status(), BOARD)
    report = sounder.report()
    assert report["speaker"] is False and report["note"] == note
    assert [(h["cue"], h["text"]) for h in report["heard"]] == [("your_turn", "Blue to play")]


def test_the_pages_get_the_boards_own_voice_for_the_newest_sentences() -> None:
    voice = _Voice()
    sounder = Sounder(
        SoundSettings(voice=True), None, local=_Clock(datetime(2026, 1, 1, 12)), voice=voice
    )
    sounder.hear(_status(phase="setup"), BOARD)
    sounder.hear(_status(), BOARD)
    sounder.hear(_status(moves=["W1"], to_move=1), BOARD)
    numbered = {h["n"]: h for h in sounder.report()["heard"]}
    said = next(n for n, h in numbered.items() if h["text"] == "Red to play")
    cue_only = next(n for n, h in numbered.items() if h["text"] is None)
    wav = sounder.voiced(said)
    assert wav is not None and wav_seconds(wav) > 0.5
    assert sounder.voiced(said) == wav and voice.rendered == ["Red to play"], "rendered once"
    assert sounder.voiced(cue_only) is None, "a cue has no words"
    assert sounder.voiced(999) is None, "only the newest sentences"


def test_every_piece_of_every_game_has_its_own_sentences() -> None:
    """A piece named alone in a sentence would keep one article for all (German
    "die" for a Ring): each piece a game names has its two sentences."""
    for game in _discover():
        for piece in create(game).board().pieces:
            if not piece.single or not isinstance(piece.name, Message):
                continue  # a piece of parts is named by its parts; Linie 1's tiles below
            key = piece.name.msgid
            assert key in phrases._SENTENCES, f"{game}'s {piece.name} has no sentences of its own"
            take, put = phrases._SENTENCES[key]
            assert placeholders(take) == placeholders(key) | {"sites"}, take
            assert placeholders(put) == placeholders(key) | {"site"}, put


@pytest.mark.parametrize(
    ("language", "code", "took", "put"),
    [
        ("de", "white-ring", "Nimm den weißen Ring von c3", "Lege den weißen Ring zurück auf c3"),
        (
            "de",
            "black-disc",
            "Nimm die schwarze Scheibe von c3",
            "Lege die schwarze Scheibe zurück auf c3",
        ),
        ("fr", "white-ring", "Retirez l'anneau blanc de c3", "Remettez l'anneau blanc sur c3"),
        ("fr", "black-disc", "Retirez le disque noir de c3", "Remettez le disque noir sur c3"),
    ],
)
def test_a_piece_is_said_with_its_own_article(
    language: str, code: str, took: str, put: str
) -> None:
    names = {p.code: p.name for p in create("duploline").board().pieces}
    with i18n.language(language):
        assert phrases.take_off(names[code], "c3") == took
        assert phrases.put_back(names[code], "c3") == put
