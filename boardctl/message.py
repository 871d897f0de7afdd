"""A text for people, kept with the words it was made from, translated where it is shown.

The pure core (the engines, the reconciler, the controller's presentation) cannot know
who reads a text or in which language: a board's LEDs and voice speak the board's
language, each phone its visitor's. So the core marks its texts with :func:`M_` (and
:func:`Mn_` for a counted one) instead of translating them::

    M_("{player} made a line of {length} or more", player=name, length=5)

A :class:`Message` *is* the English text (a ``str``: logs, JSON and comparisons see
English, as they must), and it keeps its message id and named parameters, so that
:func:`boardctl.i18n.translate` can give it in any language at the surface (a web
page, ``boardctl status``, the simulator's screen, the voice). A parameter that is
itself a :class:`Message` (a player's name, a piece's) is translated with it.

Placeholders are named (``{player}``), never positional and never an f-string's:
a translation may put them in another order. This module imports nothing of the
product and does no I/O: the engines may use it.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = [
    "M_",
    "Message",
    "Mn_",
    "Mp_",
    "and_list",
    "fill",
    "joined",
    "or_list",
    "placeholders",
    "said",
    "then_list",
]

_FORMATTER = string.Formatter()


def placeholders(pattern: str) -> frozenset[str]:
    """The names of ``pattern``'s placeholders (``{player}``: ``player``); a
    malformed pattern raises :class:`ValueError`."""
    return frozenset(name for _, name, _, _ in _FORMATTER.parse(pattern) if name is not None)


def _pieces(pattern: str) -> Iterator[tuple[str, str | None]]:
    for literal, name, spec, conversion in _FORMATTER.parse(pattern):
        if name is not None and (not name.isidentifier() or spec or conversion):
            raise ValueError(f"placeholder {{{name}}} in {pattern!r}: only {{name}} is allowed")
        yield literal, name


def fill(pattern: str, params: Mapping[str, object]) -> str:
    """``pattern`` with each ``{name}`` replaced by ``params[name]``; ``{{`` and
    ``}}`` stand for braces. Only plain names: no attribute, index, format or
    conversion (a translation cannot reach into a value). A placeholder without a
    value is left as written, so a faulty catalog shows a gap, never a crash."""
    try:
        parts = list(_pieces(pattern))
    except ValueError:
        return pattern
    out = []
    for literal, name in parts:
        out.append(literal)
        if name is not None:
            out.append(str(params[name]) if name in params else "{" + name + "}")
    return "".join(out)


class Message(str):
    """English text that remembers its message id and parameters (see the module)."""

    msgid: str
    plural: str | None
    n: int | None
    params: Mapping[str, Any]
    #: what tells this text from another with the same English (``colour``: a
    #: line's colour "red", not the player Red); None for most
    context: str | None

    def __new__(
        cls,
        msgid: str,
        params: Mapping[str, Any] | None = None,
        plural: str | None = None,
        n: int | None = None,
        context: str | None = None,
    ) -> Message:
        params = dict(params or {})
        english = msgid if plural is None or n == 1 else plural
        self = super().__new__(cls, fill(english, params))
        self.msgid = msgid
        self.plural = plural
        self.n = n
        self.params = params
        self.context = context
        return self

    def __getnewargs__(self) -> tuple[Any, ...]:
        # a Message crosses to a worker process whole, not as its English alone
        return (self.msgid, self.params, self.plural, self.n, self.context)


def M_(msgid: str, /, **params: Any) -> Message:
    """A text for people, translated where it is shown (see the module)."""
    return Message(msgid, params)


def Mp_(context: str, msgid: str, /, **params: Any) -> Message:
    """A text for people whose English says too little to translate it alone: the
    ``context`` tells it apart (``Mp_("colour", "red")``: a line's colour)."""
    return Message(msgid, params, context=context)


def Mn_(singular: str, plural: str, n: int, /, **params: Any) -> Message:
    """A counted text for people: the form that fits ``n`` in the reader's language.
    ``n`` is also the placeholder ``{n}`` unless ``params`` names it otherwise."""
    return Message(singular, {"n": n, **params}, plural=plural, n=n)


def and_list(items: Sequence[str]) -> str:
    """``blue and red``, ``blue, red and green``: names listed, in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    if len(items) == 2:
        return M_("{first} and {second}", first=items[0], second=items[1])
    return M_("{first}, {rest}", first=items[0], rest=and_list(items[1:]))


def or_list(items: Sequence[str]) -> str:
    """``a1-e1 or a1-a5``, ``a, b or c``: choices listed, in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    if len(items) == 2:
        return M_("{first} or {second}", first=items[0], second=items[1])
    return M_("{first}, {rest}", first=items[0], rest=or_list(items[1:]))


def then_list(items: Sequence[str]) -> str:
    """``W3 then x:a1-e5``: steps one after another, in the reader's language."""
    if len(items) < 2:
        return items[0] if items else ""
    return M_("{first} then {rest}", first=items[0], rest=then_list(items[1:]))


def joined(parts: Sequence[str], separator: str) -> str:
    """``parts`` one after another with ``separator`` between them (the lines of a
    board drawn as text), each part translated where the whole is: no words of its
    own, so nothing for a catalog."""
    if not any(isinstance(p, Message) for p in parts):
        return separator.join(parts)
    escaped = separator.replace("{", "{{").replace("}", "}}")
    pattern = escaped.join(f"{{p{n}}}" for n in range(len(parts)))
    return Message(pattern, {f"p{n}": p for n, p in enumerate(parts)})


def said(error: BaseException) -> str:
    """What an error says to people: the :class:`Message` it was raised with (so a
    surface can translate it), else its text."""
    if len(error.args) == 1 and isinstance(error.args[0], Message):
        return error.args[0]
    return str(error)
