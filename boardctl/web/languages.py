"""The web pages in their visitor's language.

A page's language is the one its visitor picked on the page (the ``lang`` cookie the
picker sets), else the one the browser prefers (``Accept-Language``) among those boardctl
has, else the board's (``[board] language``). The server fills the page's marked texts
(``{{ _("Scores") }}`` in the HTML) and hands the script its own texts, translated, in a
JSON block of the page (``<script type="application/json" id="words">``): the script's
``_("...")`` looks them up there. The live state reaches each page in its language too
(:meth:`boardctl.web.publish.Publisher.encoded`).
"""

from __future__ import annotations

import functools
import html
import json
import re
from importlib import resources

from boardctl import i18n

#: the cookie the pages' picker sets: the language a visitor chose
COOKIE = "lang"
#: the pages' scripts whose texts are marked ``_("...")``
SCRIPTS = ("words.js", "app.js", "phone.js", "fleet.js", "venue.js", "stats.js", "sound.js")

_MARKED = re.compile(r'\{\{ _\("((?:[^"\\]|\\.)*)"\) \}\}')
_SCRIPT_TEXT = re.compile(r'(?<![\w$.])_\(\s*"((?:[^"\\\n]|\\.)*)"')


def chosen(cookie: str | None, accept: str | None, default: str) -> str:
    """The language of a page for a visitor whose browser sent ``cookie`` (the
    Cookie header) and ``accept`` (Accept-Language); any header, however long or
    malformed, gives a language of boardctl's."""
    picked = _cookie_value(cookie, COOKIE)
    if picked is not None and i18n.known(picked):
        return picked
    return i18n.negotiate(accept) or (default if i18n.known(default) else i18n.DEFAULT)


def _cookie_value(header: str | None, name: str) -> str | None:
    if not isinstance(header, str):
        return None
    for part in header[:4096].split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value.strip()[:16]
    return None


@functools.cache
def script_texts() -> tuple[str, ...]:
    """Every text the pages' scripts mark with ``_("...")``, as written."""
    found: dict[str, None] = {}
    static = resources.files("boardctl.web").joinpath("static")
    for name in SCRIPTS:
        source = static.joinpath(name)
        if not source.is_file():
            continue
        for match in _SCRIPT_TEXT.finditer(source.read_text(encoding="utf-8")):
            found[json.loads(f'"{match.group(1)}"')] = None
    return tuple(found)


@functools.cache
def page(name: str, code: str) -> bytes:
    """The page ``name`` (``board``: static/board.html) in language ``code``: its
    marked texts filled in, its ``lang`` set, and its script's texts in a JSON block."""
    text = resources.files("boardctl.web").joinpath("static", f"{name}.html").read_text("utf-8")
    with i18n.language(code):
        text = _MARKED.sub(lambda m: html.escape(i18n._(json.loads(f'"{m.group(1)}"'))), text)
        words = {t: i18n._(t) for t in script_texts()}
    block = json.dumps(
        {
            "language": code,
            "languages": [[c, i18n.NAMES.get(c, c)] for c in i18n.languages()],
            "words": {k: v for k, v in words.items() if k != v},
        },
        ensure_ascii=False,
        separators=(",", ":"),
    ).replace("</", "<\\/")
    text = text.replace('<html lang="en">', f'<html lang="{code}">', 1)
    text = text.replace(
        '<script src="/static/',
        f'<script type="application/json" id="words">{block}</script>\n'
        '<script src="/static/words.js"></script>\n<script src="/static/',
        1,
    )
    return text.encode()
