"""The exception root of boardctl.

Every error the package raises derives from :class:`BoardctlError` and also from
the matching built-in, so callers may catch either (``except ValueError`` still
catches an illegal move). Messages say what was wrong, where, and what to do.
"""

from __future__ import annotations


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
