"""Texts come out in the reader's language: the board's, the browser's, the terminal's."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from boardctl import config, i18n
from boardctl.engines import engine_class
from boardctl.errors import ConfigError
from boardctl.message import M_, Message, Mn_, and_list, fill


def test_a_message_is_english_until_a_surface_translates_it() -> None:
    text = M_("{player} has no marbles left", player=M_("red"))
    assert text == "red has no marbles left"
    assert isinstance(text, str)
    with i18n.language("de"):
        assert i18n.translate(text) == "Rot hat keine Kugeln mehr"
    with i18n.language("fr"):
        assert i18n.translate(text) == "rouge n'a plus de billes"
    assert i18n.translate(text) == "red has no marbles left"


def test_a_status_is_translated_whole_and_stays_english_as_json() -> None:
    status = {"task": M_("insert a marble"), "moves": ["W3"], "n": 2, "why": None}
    assert i18n.localized(status, "de") == {
        "task": "eine Kugel einschieben",
        "moves": ["W3"],
        "n": 2,
        "why": None,
    }
    import json

    assert json.loads(json.dumps(status))["task"] == "insert a marble"


def test_a_message_crosses_to_another_process_whole() -> None:
    text = M_("{first} and {second}", first=M_("blue"), second=M_("red"))
    again = pickle.loads(pickle.dumps(text))
    assert isinstance(again, Message) and again == text
    with i18n.language("de"):
        assert i18n.translate(again) == "Blau und Rot"


def test_names_are_listed_in_the_readers_language() -> None:
    names = [M_("blue"), M_("red"), M_("green")]
    assert and_list(names) == "blue, red and green"
    with i18n.language("fr"):
        assert i18n.translate(and_list(names)) == "bleu, rouge et vert"


def test_a_counted_text_takes_the_form_of_its_number() -> None:
    assert Mn_("{n} marble", "{n} marbles", 1) == "1 marble"
    assert Mn_("{n} marble", "{n} marbles", 3) == "3 marbles"


@given(st.text(max_size=60), st.dictionaries(st.sampled_from(["a", "b", "n"]), st.integers()))
def test_a_faulty_pattern_shows_a_gap_never_an_error(pattern: str, params: dict[str, int]) -> None:
    # a translation is data: however broken, filling it never raises nor reaches into a value
    out = fill(pattern, params)
    assert isinstance(out, str)


def test_a_translation_cannot_reach_into_a_value() -> None:
    assert fill("{player.__class__}", {"player": "red"}) == "{player.__class__}"


@given(st.text(max_size=2000))
def test_any_accept_language_header_gives_an_answer_never_an_error(header: str) -> None:
    assert i18n.negotiate(header) in (None, *i18n.languages())


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["de", "de-CH", "fr-FR", "en-GB", "it", "*", "zh-Hant-TW", "x"]),
            st.one_of(st.none(), st.floats(min_value=0, max_value=1).map(lambda q: round(q, 3))),
        ),
        max_size=8,
    )
)
def test_the_language_a_browser_prefers_most_is_chosen(
    ranges: list[tuple[str, float | None]],
) -> None:
    header = ", ".join(tag if q is None else f"{tag};q={q}" for tag, q in ranges)
    got = i18n.negotiate(header)
    weights: dict[str, float] = {}
    for tag, q in ranges:
        code = "en" if tag == "*" else tag.split("-")[0]
        if code in i18n.languages() and (q is None or q > 0):
            weights[code] = max(weights.get(code, 0), 1.0 if q is None else q)
    if not weights:
        assert got is None
    else:
        assert got is not None and weights[got] == max(weights.values())


def test_common_headers() -> None:
    assert i18n.negotiate("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7") == "de"
    assert i18n.negotiate("fr-CH, fr;q=0.9, en;q=0.8, de;q=0.7, *;q=0.5") == "fr"
    assert i18n.negotiate("it-IT,it;q=0.9") is None
    assert i18n.negotiate("it, de;q=0.1") == "de"
    assert i18n.negotiate("de;q=0, fr") == "fr"
    assert i18n.negotiate(None) is None
    assert i18n.negotiate("de" * 10_000) is None


def test_the_terminal_asks_as_every_gettext_program_reads_it() -> None:
    assert i18n.from_environment({"LANG": "de_DE.UTF-8"}) == "de"
    assert i18n.from_environment({"LANGUAGE": "it:fr", "LANG": "de_DE.UTF-8"}) == "fr"
    assert i18n.from_environment({"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}) is None
    assert i18n.from_environment({}) is None


def test_the_boards_language_is_checked_where_it_is_read(tmp_path: Path) -> None:
    assert config.load("/nonexistent").board.language == "en"
    assert config.load("/nonexistent", ['board.language="de"']).board.language == "de"
    path = tmp_path / "boardctl.toml"
    path.write_text('[board]\nlanguage = "klingon"\n')
    with pytest.raises(ConfigError, match=r"boardctl\.toml:2.*klingon.*en, de, fr"):
        config.load(path)


def test_a_game_and_its_pieces_go_by_their_published_names() -> None:
    spec = engine_class("shiftago")().board()
    with i18n.language("de"):
        assert [i18n.translate(p.name) for p in spec.pieces][:2] == ["blaue Kugel", "rote Kugel"]
    with i18n.language("fr"):
        assert i18n.translate(spec.pieces[0].name) == "bille bleue"
