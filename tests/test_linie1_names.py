"""Linie 1's tiles named in the reader's language where people read them: the pages'
board (each tile's name) and the voice's sentence for a tile with its stop sign and
streetcar on it; the thousands of names of the tiles with things on them are made
only for the one shown."""

from __future__ import annotations

import pytest

from boardctl.daemon.sound import _Names
from boardctl.engines import create
from boardctl.i18n import language, localized
from boardctl.sound.notices import Board, listen
from boardctl.web.publish import declaration
from hardware.profiles import load_profile


@pytest.mark.parametrize(
    ("code", "tile"),
    [("de", "Gleisplättchen 2N (Kurve)"), ("fr", "tuile 2N (courbe)"), ("en", "curve tile 2N")],
)
def test_the_pages_name_each_tile_in_the_readers_language(code: str, tile: str) -> None:
    engine = create("linie1")
    page = localized(declaration(engine, load_profile("linie1")), code)
    names = {p["code"]: p["name"] for p in page["pieces"]}
    assert names["2N"] == tile
    assert names["stop"] == {"de": "Haltestellenschild", "fr": "panneau d'arrêt"}.get(
        code, "stop sign"
    )


@pytest.mark.parametrize(
    ("code", "said"),
    [
        (
            "de",
            "Nimm das Gleisplättchen 2N (Kurve) mit Haltestellenschild und Straßenbahn der"
            " Linie 1 (rot) von c3",
        ),
        (
            "fr",
            "Retirez la tuile 2N (courbe) avec panneau d'arrêt et tramway de la ligne 1"
            " (rouge) de c3",
        ),
        (
            "en",
            "Take the curve tile 2N with stop sign and streetcar of line 1 (red) off c3",
        ),
    ],
)
def test_the_voice_names_a_tile_with_things_on_it(code: str, said: str) -> None:
    spec = create("linie1").board()
    status = {"game": "linie1", "options": {}, "phase": "awaiting_move", "moves": []}
    board = Board(("player 1", "player 2"), _Names(spec), {"c3": "2N+stop+car1"})
    heard, _ = listen(None, status, board)
    _, notices = listen(heard, {**status, "phase": "wrong_board", "offending": ["c3"]}, board)
    [phrase] = [n.phrase for n in notices if n.phrase is not None]
    with language(code):
        assert phrase.text() == said


def test_a_tile_with_things_on_it_keeps_its_english_name_until_shown() -> None:
    """The board is described at start-up: its thousands of tiles with a stop sign or
    streetcars on them keep plain English there (logs read it), and are made into
    words for people only when one is shown."""
    spec = create("linie1").board()
    piece = spec.piece("2N+stop+car1")
    assert piece is not None
    assert piece.name == "curve tile 2N with stop, car1"
    assert type(piece.name) is str
    assert spec.named("2N+stop+car1") == (
        "curve tile 2N with stop sign and streetcar of line 1 (red)"
    )
    assert spec.named("no such piece") == "no such piece"


@pytest.mark.parametrize(
    ("code", "said"),
    [
        ("de", "Nimm die Straßenbahnen der Linien 1 (rot), 2 (gelb) und 3 (grün) von t1a"),
        ("fr", "Retirez les tramways des lignes 1 (rouge), 2 (jaune) et 3 (verte) de t1a"),
        ("en", "Take the streetcars of lines 1 (red), 2 (yellow) and 3 (green) off t1a"),
    ],
)
def test_the_voice_has_a_sentence_for_three_streetcars_together(code: str, said: str) -> None:
    """Three streetcars on one site were read as a quoted label („…“): they have a
    sentence of their own, each line named in the list."""
    spec = create("linie1", {"players": 3}).board()
    status = {"game": "linie1", "options": {"players": 3}, "phase": "awaiting_move", "moves": []}
    board = Board(("player 1", "player 2", "player 3"), _Names(spec), {"t1a": "car1+car2+car3"})
    heard, _ = listen(None, status, board)
    _, notices = listen(heard, {**status, "phase": "wrong_board", "offending": ["t1a"]}, board)
    [phrase] = [n.phrase for n in notices if n.phrase is not None]
    with language(code):
        assert phrase.text() == said


def test_three_streetcars_together_are_put_back_with_a_sentence_of_their_own() -> None:
    from boardctl.sound import phrases

    stack = create("linie1", {"players": 3}).board().piece("car1+car2+car3")
    assert stack is not None
    with language("de"):
        assert phrases.put_back(stack.name, "t1a") == (
            "Stelle die Straßenbahnen der Linien 1 (rot), 2 (gelb) und 3 (grün) zurück auf t1a"
        )
    with language("fr"):
        assert phrases.put_back(stack.name, "t1a") == (
            "Remettez les tramways des lignes 1 (rouge), 2 (jaune) et 3 (verte) sur t1a"
        )
