"""The voice speaks the board's language ([board] language), whatever the pages or the
terminal read: through the real daemon, as the recording twin of its speaker hears it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from test_sound_daemon import FAST, WAIT, _hears, _push, sim_of  # noqa: F401 - sim_of: a fixture

from boardctl.engines import create
from boardctl.sim import hands
from boardctl.sim.session import Simulation


@pytest.mark.parametrize(
    ("language", "turn", "red_turn"),
    [("de", "Blau ist am Zug", "Rot ist am Zug"), ("fr", "À bleu de jouer", "À rouge de jouer")],
)
def test_the_voice_speaks_the_boards_language(
    sim_of: Any,  # noqa: F811
    language: str,
    turn: str,
    red_turn: str,
) -> None:
    sim = sim_of(f'board.language="{language}"', "sound.voice=true", seats="hands,hands")
    sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    _hears(sim, "voice", turn)
    _push(sim, "W3", "p0")
    clip = _hears(sim, "voice", red_turn)
    assert clip.language == language


@pytest.fixture
def duploline_of() -> Iterator[Any]:
    made: list[Simulation] = []

    def make(language: str) -> Simulation:
        sim = Simulation(
            "duploline",
            overrides=[
                *FAST,
                'game.seats="hands,hands"',
                f'board.language="{language}"',
                "sound.voice=true",
            ],
        )
        made.append(sim)
        sim.start()
        return sim

    yield make
    for sim in made:
        sim.close()


@pytest.mark.parametrize(
    ("language", "take_ring_off", "put_disc_back"),
    [
        ("de", "Nimm den schwarzen Ring von c3", "Lege die weiße Scheibe zurück auf c3"),
        ("fr", "Retirez l'anneau noir de c3", "Remettez le disque blanc sur c3"),
    ],
)
def test_the_voice_names_each_piece_with_its_own_article(
    duploline_of: Any, language: str, take_ring_off: str, put_disc_back: str
) -> None:
    """A ring is masculine in German and a disc in French: the sentence that names a
    piece is whole for each piece, not one article for all."""
    sim = duploline_of(language)
    sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    spec = create("duploline").board()
    # black's ring while white is to open: the board is wrong
    sim.apply(hands.place(spec, sim.layout, "c3", "black-ring"))
    _hears(sim, "voice", take_ring_off)
    sim.apply(hands.lift(spec, sim.layout, "c3"))
    sim.wait_status(lambda s: s["phase"] == "awaiting_move", WAIT)
    sim.apply(hands.place(spec, sim.layout, "c3", "white-disc"))
    sim.wait_status(lambda s: len(s["moves"]) == 1 and s["phase"] == "awaiting_move", WAIT)
    sim.apply(hands.place(spec, sim.layout, "d4", "black-disc"))
    sim.wait_status(lambda s: len(s["moves"]) == 2 and s["phase"] == "awaiting_move", WAIT)
    # the disc played before is lifted: it must come back
    sim.apply(hands.lift(spec, sim.layout, "c3"))
    _hears(sim, "voice", put_disc_back)
