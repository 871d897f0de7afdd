"""The terminal's language in tests of what the command line prints."""

from __future__ import annotations

import pytest


def terminal_speaks(monkeypatch: pytest.MonkeyPatch, lang: str | None = None) -> None:
    """The terminal's language as ``LANG`` alone names it (``lang``, when given):
    the variables read before it are cleared."""
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    if lang is not None:
        monkeypatch.setenv("LANG", lang)
