"""The words a person reads, in their language.

Texts are marked with :func:`gettext` (imported as ``_``) where they are made, or with
:func:`N_` where they are only named and translated later. The pure core marks its texts
with :func:`boardctl.message.M_` instead: a :class:`~boardctl.message.Message` is English
until :func:`translate` (or :func:`localized`, for a whole status) gives it in a language
at the surface. Which language a text comes out in is the current language of the thread
or task asking (:func:`language`): the board's default (``[board] language``) for the
voice, the simulator and ``boardctl status``; the visitor's for a web page. Logs and JSON
stay English.

The catalogs are GNU gettext's ``.po`` files, kept in
``boardctl/locale/<code>/LC_MESSAGES/boardctl.po`` and read as they are (:func:`read_po`):
one file per language in the source, nothing to compile, so a checkout, the tests, the
simulator and the Debian package all read the same catalogs. ``make messages`` extracts
the texts with Babel and updates the catalogs; docs/languages.md says how to add one.
"""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
import os
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from boardctl.message import Message, fill

DOMAIN = "boardctl"
LOCALE_DIR = Path(__file__).with_name("locale")
DEFAULT = "en"

#: each language's name in that language, for the pages' picker; a language is
#: offered when it has a catalog (English, the texts as written, always)
NAMES: Mapping[str, str] = {"en": "English", "de": "Deutsch", "fr": "Français"}

_current: contextvars.ContextVar[str] = contextvars.ContextVar("boardctl_language", default=DEFAULT)


class CatalogError(ValueError):
    """A catalog that cannot be read: the file, the line and what is wrong."""


def catalog_path(code: str, root: Path = LOCALE_DIR) -> Path:
    return root / code / "LC_MESSAGES" / f"{DOMAIN}.po"


@functools.cache
def languages() -> tuple[str, ...]:
    """The languages texts can come out in: English and each with a catalog."""
    found = {p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return (DEFAULT, *sorted(found - {DEFAULT}))


def known(code: str) -> bool:
    return code in languages()


class Catalog(_gettext.GNUTranslations):
    """A translation read from a ``.po`` file; what it lacks comes out in English."""

    def __init__(self, messages: Mapping[str | tuple[str, int], str], plural_forms: str) -> None:
        _gettext.NullTranslations.__init__(self)
        self._catalog = dict(messages)
        self._info = {"plural-forms": plural_forms}
        self._charset = "utf-8"
        self.plural = _plural(plural_forms)


def _plural(header: str) -> Any:
    match = re.search(r"plural\s*=\s*([^;]+)", header)
    if not match:
        return lambda n: int(n != 1)
    return _gettext.c2py(match.group(1).strip())


_KEYWORD = re.compile(r"^(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(\".*\")\s*$")


def read_po(path: Path) -> Catalog:
    """The catalog in ``path``, a ``.po`` file: its translated messages, neither
    fuzzy nor obsolete. A line that is not PO raises :class:`CatalogError`
    naming the file and line."""
    entries: list[dict[str, Any]] = []
    entry: dict[str, Any] = {}
    last: str | None = None

    def close() -> None:
        nonlocal entry, last
        if "msgid" in entry:
            entries.append(entry)
        entry, last = {}, None

    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        where = f"{path}, line {number}"
        if not line:
            close()
        elif line.startswith("#~"):
            close()
            entry["obsolete"] = True
        elif line.startswith("#,"):
            if "msgid" in entry:
                close()
            entry.setdefault("flags", set()).update(f.strip() for f in line[2:].split(","))
        elif line.startswith("#"):
            if "msgid" in entry and last is not None and last.startswith("msgstr"):
                close()
        elif line.startswith('"'):
            if last is None:
                raise CatalogError(f"{where}: a string with no msgid or msgstr before it")
            entry[last] += _string(line, where)
        else:
            m = _KEYWORD.match(line)
            if not m:
                raise CatalogError(f"{where}: not a PO line: {line[:60]!r}; see docs/languages.md")
            keyword = m.group(1)
            if keyword in ("msgid", "msgctxt") and last is not None and last.startswith("msgstr"):
                close()
            key = f"msgstr[{m.group(2)}]" if m.group(2) is not None else keyword
            entry[key] = _string(m.group(3), where)
            last = key
    close()
    messages: dict[str | tuple[str, int], str] = {}
    plural_forms = ""
    for e in entries:
        if e.get("obsolete") or "fuzzy" in e.get("flags", ()):
            continue
        msgid = e["msgid"]
        if "msgctxt" in e:
            msgid = f"{e['msgctxt']}\x04{msgid}"
        if msgid == "":
            header = e.get("msgstr", "")
            plural_forms = next(
                (h.split(":", 1)[1] for h in header.split("\n") if h.startswith("Plural-Forms:")),
                "",
            )
            continue
        if "msgid_plural" in e:
            for key, value in e.items():
                if key.startswith("msgstr[") and value:
                    messages[(msgid, int(key[7:-1]))] = value
        elif e.get("msgstr"):
            messages[msgid] = e["msgstr"]
    return Catalog(messages, plural_forms)


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\"}
_QUOTED = re.compile(r'^"((?:[^"\\]|\\.)*)"$')
_ESCAPE = re.compile(r"\\(.)")


def _string(quoted: str, where: str) -> str:
    """A PO string's value: ``"a \\"b\\"\\n"`` -> ``a "b"`` and a new line."""
    match = _QUOTED.match(quoted.strip())
    if not match:
        raise CatalogError(f"{where}: a broken string {quoted[:60]!r}")
    body = match.group(1)
    if "\\" not in body:
        return body
    try:
        return _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], body)
    except KeyError as exc:
        raise CatalogError(f"{where}: an unknown escape \\{exc.args[0]}") from None


@functools.cache
def translation(code: str) -> _gettext.NullTranslations:
    """The catalog of one language; English (the texts as written) when there is none."""
    path = catalog_path(code)
    if code == DEFAULT or not known(code) or not path.is_file():
        return _gettext.NullTranslations()
    return read_po(path)


def current() -> str:
    """The language texts come out in here and now."""
    return _current.get()


@contextmanager
def language(code: str) -> Iterator[None]:
    """Make texts come out in ``code`` inside the block (this thread or task only)."""
    token = _current.set(code)
    try:
        yield
    finally:
        _current.reset(token)


def gettext(message: str, /, **params: Any) -> str:
    """``message`` in the current language, its ``{name}`` placeholders filled
    from ``params`` (a parameter that is a Message translated too)."""
    text = translation(_current.get()).gettext(message)
    return fill(text, _translated(params)) if params else text


def ngettext(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of a counted text that fits ``n``, in the current language, its
    placeholders filled from ``params`` and ``{n}`` with ``n``."""
    text = translation(_current.get()).ngettext(singular, plural, n)
    return fill(text, _translated({"n": n, **params}))


def _translated(params: Mapping[str, Any]) -> dict[str, Any]:
    return {k: translate(v) if isinstance(v, str) else v for k, v in params.items()}


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is named; translate it where it is shown."""
    return message


_ = gettext


def translate(text: str) -> str:
    """``text`` in the current language: a :class:`~boardctl.message.Message` with
    its parameters (those that are Messages translated too); any other text as it is
    (already translated where it was made, or not words: a move, a site)."""
    if not isinstance(text, Message):
        return text
    t = translation(_current.get())
    if text.context is not None:
        pattern = t.pgettext(text.context, text.msgid)
    elif text.plural is None:
        pattern = t.gettext(text.msgid)
    else:
        pattern = t.ngettext(text.msgid, text.plural, text.n if text.n is not None else 1)
    return fill(pattern, _translated(text.params))


def localized(value: Any, code: str | None = None) -> Any:
    """``value`` (a status, a reply: dicts, lists, texts) with every Message in it
    translated into ``code`` (the current language when None); plain JSON values as
    they are."""
    if code is not None:
        with language(code):
            return localized(value)
    if isinstance(value, Message):
        return translate(value)
    if isinstance(value, Mapping):
        return {k: localized(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [localized(v) for v in value]
    return value


#: the most of an Accept-Language header read: a browser sends a few dozen characters
MAX_ACCEPT = 512
_RANGE = re.compile(r"^([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*$|^\*$")


def negotiate(header: object, offered: tuple[str, ...] | None = None) -> str | None:
    """The language of ``offered`` (:func:`languages` by default) an
    Accept-Language header prefers (``de-CH, de;q=0.9, en;q=0.8``: ``de``), or None
    when it names none of them. Any header, however malformed, gives an answer:
    only its first :data:`MAX_ACCEPT` characters are read, bad parts are skipped."""
    if not isinstance(header, str):
        return None
    offered = languages() if offered is None else offered
    best: tuple[float, int, str] | None = None
    for order, part in enumerate(header[:MAX_ACCEPT].split(",")):
        tag, _, params = part.strip().partition(";")
        tag = tag.strip()
        if not _RANGE.match(tag):
            continue
        q = 1.0
        for param in params.split(";"):
            key, _, number = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(number.strip()[:5])
                except ValueError:
                    q = -1.0
        if not 0 < q <= 1:
            continue
        code = offered[0] if tag == "*" else tag.split("-")[0].lower()
        if code not in offered:
            continue
        if best is None or (q, -order) > (best[0], -best[1]):
            best = (q, order, code)
    return best[2] if best else None


def from_environment(environ: Mapping[str, str] | None = None) -> str | None:
    """The language a terminal's user asked for, as every gettext program reads it
    (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), when boardctl has it;
    None when they name none of ours (``C``, ``POSIX``, unset)."""
    env = os.environ if environ is None else environ
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for item in value.split(":"):
            code = item.split(".")[0].split("@")[0].split("_")[0].lower()
            if known(code):
                return code
        if var != "LANGUAGE":
            return None
    return None
