"""Why a player's LEDs differ from their pieces is said in the reader's language:
the note a shipped board profile gives, and the one made for a piece colour an
LED cannot glow."""

from __future__ import annotations

from boardctl import i18n
from boardctl.controller.scenes import Colours
from boardctl.engines.describe import PlayerSpec
from boardctl.message import M_
from hardware.profiles import builtin_profiles, load_profile
from hardware.profiles.parse import SHIPPED_NOTES


def test_every_shipped_profiles_note_is_a_text_of_the_catalogs() -> None:
    notes = {load_profile(name).palette_note for name in builtin_profiles()} - {""}
    assert notes, "no shipped profile has a palette note: this test checks nothing"
    assert notes <= set(SHIPPED_NOTES), f"add to SHIPPED_NOTES: {notes - set(SHIPPED_NOTES)}"


def test_the_beeline_boards_note_reads_in_german_and_french() -> None:
    profile = load_profile("beeline")
    players = (PlayerSpec(M_("black"), "#000000"), PlayerSpec(M_("red"), "#ff0000"))
    palette = Colours(board=profile.palette, note=profile.palette_note).palette(players)
    with i18n.language("de"):
        german = i18n.translate(palette.note)
    with i18n.language("fr"):
        french = i18n.translate(palette.note)
    assert "Schwarz leuchtet kalt blauweiß" in german, german
    assert "le noir s'allume" in french, french
    assert "LED cannot" not in german + french


def test_a_black_piece_lit_blue_is_said_in_german() -> None:
    players = (PlayerSpec(M_("black"), "#000000"), PlayerSpec(M_("red"), "#ff0000"))
    palette = Colours().palette(players)
    assert palette.note == "black is lit blue: an LED cannot glow black"
    with i18n.language("de"):
        german = i18n.translate(palette.note)
    assert german == "Schwarz leuchtet blau: eine LED kann nicht Schwarz leuchten", german
