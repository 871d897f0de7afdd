"""The words a person reads, in their language.

Texts are marked with :func:`gettext` (imported as ``_``) where they are made, or with
:func:`N_` where they are only named and translated later. Which language a text comes out in is
the current language of the thread or task asking (:func:`language`): the board's default for the
LEDs' companion texts and the voice, the browser's for a web page. Logs and JSON stay English.

The catalogs are GNU gettext's, kept in ``boardctl/locale/<code>/LC_MESSAGES/boardctl``.
"""

from __future__ import annotations

import contextvars
import functools
import gettext as _gettext
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

DOMAIN = "boardctl"
LOCALE_DIR = Path(__file__).with_name("locale")
DEFAULT = "en"

_current: contextvars.ContextVar[str] = contextvars.ContextVar("boardctl_language", default=DEFAULT)


@functools.cache
def translation(code: str) -> _gettext.NullTranslations:
    """The catalog of one language; English (the texts as written) when there is none."""
    return _gettext.translation(DOMAIN, LOCALE_DIR, languages=[code], fallback=True)


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


def gettext(message: str) -> str:
    """``message`` in the current language."""
    return translation(_current.get()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a counted text that fits ``n``, in the current language."""
    return translation(_current.get()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is named; translate it where it is shown."""
    return message


_ = gettext
