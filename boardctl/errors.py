"""The exception root of boardctl.

Every error the package raises derives from :class:`BoardctlError` and also from
the matching built-in, so callers may catch either (``except ValueError`` still
catches an illegal move). Messages say what was wrong, where, and what to do.
"""

from __future__ import annotations

#: the most characters of someone's input that an error message quotes
EXCERPT = 60


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """What an error quotes of someone's input: ``repr(value)``, or for a long
    value its first ``limit`` characters and its length (a refusal of a
    900 kB move must not be 2 MB long)."""
    if isinstance(value, str | bytes) and len(value) > limit:
        unit = "characters" if isinstance(value, str) else "bytes"
        return f"{value[:limit]!r}... ({len(value)} {unit})"
    text = repr(value)
    if len(text) > limit:
        return f"{text[:limit]}... ({len(text)} characters)"
    return text


#: the longest error message boardctl prints or answers; longer ones lose their middle
MAX_MESSAGE = 1000


def shorten(message: str, limit: int = MAX_MESSAGE) -> str:
    """``message``, its middle left out when it is longer than ``limit``
    (the start says what was wrong, the end what to do)."""
    if len(message) <= limit:
        return message
    head, tail = limit * 2 // 3, limit // 3
    return f"{message[:head]} [... {len(message) - head - tail} characters ...] {message[-tail:]}"


class BoardctlError(Exception):
    """Root of every error raised by boardctl."""


class RulesError(BoardctlError):
    """Root of the errors raised by the rules engines."""


class IllegalMove(RulesError, ValueError):
    """An action that the rules forbid in the current state."""


class BadNotation(RulesError, ValueError):
    """Text that is not an action in the game's notation."""


class BadOptions(RulesError, ValueError):
    """Game options that are unknown or out of range."""


class UnknownGame(RulesError, LookupError):
    """A game name that no engine answers to."""


class RecordError(BoardctlError, ValueError):
    """A game record file that cannot be read."""


class ConfigError(BoardctlError, ValueError):
    """A configuration or profile file with a wrong key or value."""


class ComputerError(BoardctlError):
    """Root of the errors raised by the computer opponent (boardctl.computer)."""


class UnknownLevel(ComputerError, ValueError):
    """A level of the computer opponent that does not exist."""


class NotThinking(ComputerError, ValueError):
    """The computer was asked to choose where no player of its own acts
    (chance acts, or the game is over), or in a game it cannot play fairly."""
