"""An action written wrong is refused in the reader's language, in every game: a cell
not on the board, a line with one end, a segment that skips a point, a Linie 1 tile
kind or die face out of range. The words people type (x:a1-e1, A:c3-c4) stay as
written."""

from __future__ import annotations

import pytest

from boardctl import i18n
from boardctl.engines import create
from boardctl.errors import BadNotation, IllegalMove
from boardctl.message import Message, said

#: (game, what is typed, its refusal in German, in French)
WRONG = [
    (
        "shiftago",
        "x:a1-a1",
        "'x:a1-a1': eine Reihe braucht zwei verschiedene Endfelder",
        "'x:a1-a1' : un alignement a besoin de deux cases d'extrémité différentes",
    ),
    (
        "duploline",
        "D+a7",
        "'D+a7': a7 ist kein Feld des DuploLine-Bretts",
        "'D+a7' : a7 n'est pas une case du plateau de DuploLine",
    ),
    (
        "duploline",
        "Dd4-d4",
        "'Dd4-d4': ein Versetzen braucht zwei verschiedene Felder",
        "'Dd4-d4' : un déplacement a besoin de deux cases différentes",
    ),
    (
        "bidiline",
        "A:c3-c5",
        "'A:c3-c5': c3 und c5 liegen nicht nebeneinander; ein Stück geht einen Schritt",
        "'A:c3-c5' : c3 et c5 ne sont pas voisins ; un segment avance d'un pas",
    ),
    (
        "bidiline",
        "A:c3-z3",
        "'A:c3-z3': z3 ist kein Punkt des Rasters 7 x 7 (Spalten a-g, Reihen 1-7)",
        "'A:c3-z3' : z3 n'est pas un point de la grille de 7 x 7 (colonnes a-g, rangées 1-7)",
    ),
    (
        "bidiline",
        "c3-c4",
        "'c3-c4' braucht die Farbe des Endes, das es verlängert: schreibe A:c3-c4 oder B:c3-c4",
        "'c3-c4' demande la couleur du bout qu'il allonge : écrivez A:c3-c4 ou B:c3-c4",
    ),
    (
        "beeline",
        "Sz4nw",
        "'Sz4nw': z4 ist kein Feld dieses Beeline-Bretts",
        "'Sz4nw' : z4 n'est pas une case de ce plateau de Beeline",
    ),
    (
        "linie1",
        "draw:99",
        "'draw:99': eine Plättchensorte ist eine Zahl von 1 bis",
        "'draw:99' : un type de tuile est un nombre de 1 à",
    ),
    (
        "linie1",
        "roll:0",
        "'roll:0': eine Würfelseite ist eine Ziffer von 1 bis 9 oder H",
        "'roll:0' : une face du dé est un chiffre de 1 à 9 ou H",
    ),
    (
        "linie1",
        "start:t9z",
        "'start:t9z': 't9z' ist keine Endhaltestelle; das sind t1a, t1b ...",
        "'start:t9z' : 't9z' n'est pas un terminus ; ce sont t1a, t1b ...",
    ),
    (
        "linie1",
        "z99:1E",
        "'z99:1E': z99 ist kein Feld des Spielplans",
        "'z99:1E' : z99 n'est pas une case du plateau",
    ),
]


@pytest.mark.parametrize(("game", "typed", "german", "french"), WRONG)
def test_an_action_written_wrong_is_refused_in_german_and_french(
    game: str, typed: str, german: str, french: str
) -> None:
    engine = create(game)
    with pytest.raises(BadNotation) as caught:
        engine.parse_action(typed)
    refusal = said(caught.value)
    assert isinstance(refusal, Message)
    with i18n.language("de"):
        assert german in i18n.translate(refusal)
    with i18n.language("fr"):
        assert french in i18n.translate(refusal)


def test_an_action_the_rules_forbid_is_refused_with_its_reason_translated() -> None:
    engine = create("shiftago")
    state = engine.initial()
    with pytest.raises(IllegalMove) as caught:
        engine.apply(state, engine.parse_action("x:a1-e1"))
    refusal = said(caught.value)
    with i18n.language("de"):
        german = i18n.translate(refusal)
    assert german.startswith("x:a1-e1: ") and german != str(refusal)
