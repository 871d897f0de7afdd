"""The voice speaks the board's language ([board] language), whatever the pages or the
terminal read: through the real daemon, as the recording twin of its speaker hears it."""

from __future__ import annotations

from typing import Any

import pytest
from test_sound_daemon import WAIT, _hears, _push, sim_of  # noqa: F401 - sim_of: a fixture


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
