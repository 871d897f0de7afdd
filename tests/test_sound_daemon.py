"""What the board plays and says, through the real daemon on the virtual
microcontroller, as the recording twin of its speaker hears it: a whole short
game against the computer (the visitor's turn, each action accepted, the
computer's move said, a wrong board said as what to do, the end said), the
operator's settings changed live, and a speaker that fails shown in the
status while the game goes on."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from terminal_support import terminal_speaks

from boardctl.daemon.sound import Sounder
from boardctl.engines import Match, create
from boardctl.sim import hands
from boardctl.sim.session import Simulation
from hardware.audio import Played, Speaker

FAST = ["controller.settle_ms=60", "controller.grace_ms=300"]
WAIT = 30.0
OPTIONS = {"players": 2, "variant": "express"}


@pytest.fixture
def sim_of() -> Iterator[Any]:
    made: list[Simulation] = []

    def make(
        *settings: str, seats: str = "hands,computer:1", state_dir: Path | None = None
    ) -> Simulation:
        sim = Simulation(
            "shiftago",
            overrides=[*FAST, f"game.seats={json.dumps(seats)}", *settings],
            options=OPTIONS,
            state_dir=state_dir,
        )
        made.append(sim)
        sim.start()
        return sim

    yield make
    for sim in made:
        sim.close()


def _said(sim: Simulation) -> list[tuple[str, str]]:
    return [(p.kind, p.text) for p in sim.audio.heard]


def _hears(sim: Simulation, kind: str, text: str) -> Played:
    """Wait until the twin heard ``text``; the clip."""
    found: list[Played] = []

    def heard(clips: list[Played]) -> bool:
        found[:] = [p for p in clips if p.kind == kind and p.text == text]
        return bool(found)

    assert sim.audio.wait_for(heard, WAIT), f"{text!r} never heard; heard {_said(sim)}"
    return found[-1]


def _speaker(sim: Simulation) -> Speaker:
    """The daemon's audio worker."""
    sounder = next(w for w in sim.daemon.loop.watchers if isinstance(w, Sounder))
    assert sounder.speaker is not None
    return sounder.speaker


def _match(status: dict[str, Any]) -> Match[Any, Any]:
    return Match.from_moves(create(status["game"], status["options"]), status["moves"])


def _push(sim: Simulation, text: str, piece: str) -> None:
    spec = create("shiftago", OPTIONS).board()
    sim.apply(hands.insert(spec, sim.layout, text, piece))


def test_a_whole_game_against_the_computer_is_heard(sim_of: Any) -> None:
    sim = sim_of("sound.voice=true")
    rng = random.Random(3)
    status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    _hears(sim, "voice", "Blue to play")
    wrong_shown = False
    computer_said: list[str] = []
    for _ in range(80):
        if status["phase"] == "game_over":
            break
        match = _match(status)
        engine, state = match.engine, match.state
        piece = f"p{status['to_move']}"
        if status.get("computer") is None:
            if not wrong_shown and len(status["moves"]) >= 2:
                # a marble set down inside the board, where no push brings one
                free = next(c for c in ("d4", "c3", "e5", "c5", "e3") if c not in sim.layout)
                sim.apply([hands.Change(free, "p0")])
                sim.wait_status(lambda s: s["phase"] == "wrong_board", WAIT)
                _hears(sim, "voice", f"Take the blue marble off {free}")
                sim.apply([hands.Change(free, None)])
                status = sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
                wrong_shown = True
            text = engine.format_action(rng.choice(list(engine.legal_actions(state))))
            _push(sim, text, piece)
        else:
            status = sim.wait_status(
                lambda s: (s.get("computer") or {}).get("doing") == "ready", WAIT
            )
            moves = status["computer"]["moves"]
            computer_said.append(f"The computer plays {moves[0]}")
            _hears(sim, "voice", computer_said[-1])
            _push(sim, moves[0], piece)
        want = len(status["moves"]) + 1
        status = sim.wait_status(
            lambda s, n=want: len(s["moves"]) == n and s["phase"] != "move_in_progress", WAIT
        )
        # each action accepted has its cue; all is said before the next action (none is stale)
        assert sim.audio.wait_for(
            lambda clips, n=want: sum(p.text == "accepted" for p in clips) == n, WAIT
        ), _said(sim)
        assert _speaker(sim).idle(WAIT)
    assert status["phase"] == "game_over", "the game ended"
    assert wrong_shown and computer_said
    winner = ("Blue", "Red")[status["winner"]]
    end = _hears(sim, "voice", f"{winner} wins")
    cue = _hears(sim, "cue", "win")
    assert cue.at <= end.at, "the cue first, then the words"
    said = _said(sim)
    assert said.count(("cue", "accepted")) == len(status["moves"])
    assert ("cue", "wrong") in said and ("cue", "computer") in said
    # the visitor is told their turn after each of the computer's moves, never the computer
    assert said.count(("voice", "Blue to play")) >= len(computer_said)
    assert ("voice", "Red to play") not in said
    # what was played is also what the pages get, newest last
    heard = sim.status()["sound"]["heard"]
    assert heard[-1]["cue"] == "win" and heard[-1]["text"] == f"{winner} wins"


def test_an_operator_changes_the_sound_live_and_a_broken_speaker_is_shown(
    sim_of: Any, tmp_path: Path, capsys: Any
) -> None:
    sim = sim_of(seats="hands,hands", state_dir=tmp_path)
    sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    _hears(sim, "cue", "your_turn")
    assert ("voice", "Blue to play") not in _said(sim), "the voice is off by default"
    reply = sim.request({"cmd": "sound", "voice": True, "volume": 40})
    assert reply["ok"] and reply["sound"]["voice"] and reply["sound"]["volume"] == 40
    bad = sim.request({"cmd": "sound", "volume": 400})
    assert not bad["ok"] and "0 to 100" in bad["error"]
    sim.audio.fail = "no speaker on ALSA device 'default' (audio open error)"
    _push(sim, "W3", "p0")
    _hears(sim, "voice", "Red to play")
    status = sim.wait_status(lambda s: "fault" in s["sound"], WAIT)
    assert "no speaker" in status["sound"]["fault"]
    assert status["phase"] == "awaiting_move", "the board plays on"
    from boardctl.cli.main import main

    assert main(["status", "--socket", sim.config.control.socket]) == 0
    assert "sound: no speaker on ALSA device 'default'" in capsys.readouterr().out
    sim.audio.fail = None
    _push(sim, "E3", "p1")
    status = sim.wait_status(lambda s: len(s["moves"]) == 2 and "fault" not in s["sound"], WAIT)
    sim.close()
    # kept across a restart of the daemon: the operator's settings, not the file's
    again = sim_of(seats="hands,hands", state_dir=tmp_path)
    sound = again.request({"cmd": "sound"})["sound"]
    assert (sound["volume"], sound["voice"]) == (40, True)
    assert sound["configured"]["volume"] == 70


def test_boardctl_sound_shows_sets_and_checks(sim_of: Any, capsys: Any) -> None:
    from boardctl.cli.main import main

    sim = sim_of(seats="hands,hands")
    sock = ["--socket", sim.config.control.socket]
    assert main(["sound", "--voice", "on", "--volume", "35", "--quiet", "22:00-08:00", *sock]) == 0
    out = capsys.readouterr().out
    assert "voice   on" in out and "volume  35 %" in out and "quiet   22:00-08:00" in out
    assert "speaker simulated" in out
    assert main(["sound", "--check", *sock]) == 0
    _hears(sim, "voice", "This is the board's voice: the speaker works")
    assert main(["sound", "--volume", "loud", *sock]) == 2
    assert "0 to 100" in capsys.readouterr().err
    assert main(["sound", "--quiet", "never", "--volume", "default", *sock]) == 0
    out = capsys.readouterr().out
    assert "quiet   never" in out and "volume  70 %" in out


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (
            "de_DE.UTF-8",
            ["Signale      an", "Stimme       an", "Lautstärke   35 %", "Ruhezeit     nie"],
        ),
        (
            "fr_FR.UTF-8",
            [
                "signaux      activé",
                "voix         activé",
                "volume       35 %",
                "silence      jamais",
            ],
        ),
    ],
)
def test_boardctl_sound_in_the_operators_language(
    sim_of: Any, capsys: Any, monkeypatch: Any, lang: str, lines: list[str]
) -> None:
    from boardctl.cli.main import main

    terminal_speaks(monkeypatch, lang)
    sim = sim_of(seats="hands,hands")
    sock = ["--socket", sim.config.control.socket]
    assert main(["sound", "--voice", "on", "--volume", "35", "--quiet", "never", *sock]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[:4] == lines
