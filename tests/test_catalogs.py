"""Every language's catalog has every text of the code, translated, and nothing else.

The texts are extracted as ``make messages`` extracts them (Babel, babel.cfg, the
Makefile's keywords); each catalog must translate each of them (every plural form),
have none marked fuzzy, none the code no longer has, and keep each placeholder of the
English (``{player}``) in its translation. boardctl reads the catalogs itself
(:func:`boardctl.i18n.read_po`): it must read what Babel reads.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from boardctl import i18n
from boardctl.message import placeholders

babel_extract = pytest.importorskip("babel.messages.extract", reason="Babel is a test tool")
babel_pofile = pytest.importorskip("babel.messages.pofile")

ROOT = Path(__file__).resolve().parent.parent
LANGUAGES = [code for code in i18n.languages() if code != i18n.DEFAULT]


def _keywords() -> dict[str, object]:
    """The Makefile's ``KEYWORDS := -k _ -k ngettext:1,2 ...`` as Babel takes them."""
    from babel.messages.frontend import parse_keywords

    line = next(
        line for line in (ROOT / "Makefile").read_text().splitlines() if line.startswith("KEYWORDS")
    )
    return parse_keywords(re.findall(r"-k (\S+)", line))


@cache
def extracted() -> dict[str, tuple[str | None, str]]:
    """Every text of the code: msgid -> (plural or None, the first file naming it)."""
    return {t: (plural, files[0]) for t, (plural, files) in _extracted().items()}


@cache
def _extracted() -> dict[str, tuple[str | None, list[str]]]:
    method_map, options_map = babel_extract_config()
    found: dict[str, tuple[str | None, list[str]]] = {}
    for filename, _line, message, _comments, _context in babel_extract.extract_from_dir(
        str(ROOT), method_map, options_map, keywords=_keywords()
    ):
        msgid, plural = message if isinstance(message, tuple) else (message, None)
        key = msgid if _context is None else f"{_context}\x04{msgid}"
        found.setdefault(key, (plural, []))[1].append(filename)
    return found


def babel_extract_config() -> tuple[list[tuple[str, str]], dict[str, dict[str, str]]]:
    from babel.messages.frontend import parse_mapping_cfg

    with (ROOT / "babel.cfg").open() as f:
        return parse_mapping_cfg(f)


def _catalog(code: str) -> object:
    with i18n.catalog_path(code).open("rb") as f:
        return babel_pofile.read_po(f, locale=code)


def test_the_code_marks_texts_for_translation() -> None:
    texts = extracted()
    assert len(texts) > 50, "the extraction found almost nothing: is babel.cfg right?"
    # one of each kind of marking is found: Python's _ and M_, the script's, the pages'
    files = {where for _, where in texts.values()}
    assert any("engines" in f for f in files), "no text of the engines was extracted"
    assert any("cli" in f for f in files), "no text of the command line was extracted"
    assert any(f.endswith(".js") for f in files), "no text of the pages' script was extracted"
    assert any(f.endswith(".html") for f in files), "no text of the pages' HTML was extracted"


def test_every_text_is_a_pattern_with_named_placeholders() -> None:
    bad = []
    for key, (plural, where) in extracted().items():
        msgid = key.split("\x04")[-1]
        for text in (msgid, plural or ""):
            try:
                names = placeholders(text)
            except ValueError as exc:
                bad.append(f"{where}: {text!r}: {exc}")
                continue
            if any(not n.isidentifier() for n in names):
                bad.append(f"{where}: {text!r}: placeholders must be {{name}}, not {{}} or {{0}}")
    assert not bad, "\n".join(bad)


def _key(m: object) -> str:
    """A catalog message's key as :func:`_extracted` makes it: the context, then the id."""
    msgid = m.id if isinstance(m.id, str) else m.id[0]  # type: ignore[attr-defined]
    context = m.context  # type: ignore[attr-defined]
    return msgid if context is None else f"{context}\x04{msgid}"


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_catalog_translates_every_text_of_the_code_and_nothing_else(code: str) -> None:
    catalog = _catalog(code)
    texts = extracted()
    path = i18n.catalog_path(code).relative_to(ROOT)
    have = {_key(m): m for m in catalog if m.id}  # type: ignore[attr-defined]
    missing = [f"{texts[t][1]}: {t!r}" for t in sorted(set(texts) - set(have))]
    stale = sorted(set(have) - set(texts))
    fuzzy = sorted(t for t, m in have.items() if m.fuzzy)
    empty = sorted(
        t
        for t, m in have.items()
        if (not m.string if isinstance(m.string, str) else not all(m.string))
    )
    obsolete = sorted(str(m.id) for m in catalog.obsolete.values())  # type: ignore[attr-defined]
    problems = []
    if missing:
        problems.append("missing (run make messages, then translate):\n  " + "\n  ".join(missing))
    if stale:
        problems.append("no longer in the code (run make messages):\n  " + "\n  ".join(stale))
    if fuzzy:
        problems.append(
            "marked fuzzy (check the translation, drop the flag):\n  " + "\n  ".join(fuzzy)
        )
    if empty:
        problems.append("not translated:\n  " + "\n  ".join(empty))
    if obsolete:
        problems.append("obsolete entries (#~) left:\n  " + "\n  ".join(obsolete))
    assert not problems, f"{path}:\n" + "\n".join(problems)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_translation_keeps_the_placeholders_of_the_english(code: str) -> None:
    bad = []
    for m in _catalog(code):  # type: ignore[attr-defined]
        if not m.id:
            continue
        ids = (m.id,) if isinstance(m.id, str) else m.id
        wanted = set().union(*(placeholders(i) for i in ids))
        strings = (m.string,) if isinstance(m.string, str) else m.string
        for s in strings:
            try:
                got = placeholders(s)
            except ValueError:
                bad.append(f"{ids[0]!r}: {s!r} is not a pattern (a lone brace?)")
                continue
            if (len(strings) == 1 and got != wanted) or (
                len(strings) > 1 and (got - wanted or wanted - {"n"} - got)
            ):
                bad.append(f"{ids[0]!r}: {s!r} has {sorted(got)}, the English {sorted(wanted)}")
    assert not bad, f"{i18n.catalog_path(code).relative_to(ROOT)}:\n  " + "\n  ".join(bad)


@pytest.mark.parametrize("code", LANGUAGES)
def test_boardctl_reads_a_catalog_as_babel_does(code: str) -> None:
    ours = i18n.read_po(i18n.catalog_path(code))
    checked = 0
    for m in _catalog(code):  # type: ignore[attr-defined]
        if not m.id or m.fuzzy:
            continue
        if m.context is not None:
            assert ours.pgettext(m.context, m.id) == m.string
        elif isinstance(m.id, str):
            assert ours.gettext(m.id) == m.string
        else:
            for n in (1, 2, 5):
                form = m.string[ours.plural(n)]  # type: ignore[attr-defined]
                assert ours.ngettext(m.id[0], m.id[1], n) == form
        checked += 1
    assert checked > 50


def test_the_server_finds_the_scripts_texts_as_babel_does() -> None:
    from boardctl.web.languages import script_texts

    in_scripts = {
        t for t, (_, files) in _extracted().items() if any(f.endswith(".js") for f in files)
    }
    assert set(script_texts()) == in_scripts


@pytest.mark.parametrize("code", LANGUAGES)
def test_each_language_has_its_name_for_the_picker(code: str) -> None:
    assert code in i18n.NAMES, f"add {code!r} to boardctl.i18n.NAMES (docs/languages.md)"


def test_a_broken_catalog_is_refused_with_its_file_and_line(tmp_path: Path) -> None:
    po = tmp_path / "boardctl.po"
    po.write_text('msgid "Red"\nmsgstr "Rot"\n\nmsgid "Blue\nmsgstr "Blau"\n')
    with pytest.raises(i18n.CatalogError, match=r"boardctl\.po, line 4"):
        i18n.read_po(po)


def test_the_package_carries_every_catalog() -> None:
    """The wheel (and so the Debian package) takes the .po files pyproject.toml names."""
    import fnmatch
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["boardctl"]
    for code in LANGUAGES:
        inside = i18n.catalog_path(code).relative_to(ROOT / "boardctl").as_posix()
        assert any(fnmatch.fnmatch(inside, p) for p in patterns), f"{inside} is not packaged"
