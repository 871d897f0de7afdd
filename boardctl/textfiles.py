"""Reading the files people hand boardctl: configurations, board profiles and
game records, each bounded.

A file is read up to its limit and no further (``/dev/zero`` is refused after
a bounded read, not followed until memory runs out), must be UTF-8 without a
byte-order mark, and may nest arrays and tables only so deep. Every problem is
an :class:`UnreadableFile` whose message names the problem (and the line, when
there is one) but not the file: each caller adds the file and its own advice.
"""

from __future__ import annotations

import codecs
import json
import os
import re
import tomllib
from typing import Any

from boardctl.errors import BoardctlError
from boardctl.message import M_, said

#: the largest configuration or board profile read, in bytes
MAX_TOML = 1024 * 1024
#: the largest game record read, in bytes
MAX_RECORD = 4 * 1024 * 1024
#: how deeply arrays, objects and tables may nest in any of them
MAX_DEPTH = 32
#: what a file is called where its caller names it no better
_THE_FILE = M_("the file")


class UnreadableFile(BoardctlError, ValueError):
    """A file that is too large, not UTF-8, nested too deeply or not valid;
    ``at`` is ``"LINE:COLUMN"`` when the problem has a place."""

    def __init__(self, reason: str, at: str = "") -> None:
        super().__init__(reason)
        self.at = at

    def of(self, path: object) -> str:
        """The problem, after the file's name (and the place, if any)."""
        where = f"{path}:{self.at}" if self.at else str(path)
        return M_("{where}: {fault}", where=where, fault=said(self))


def read_bytes(path: str | os.PathLike[str], limit: int, what: str = _THE_FILE) -> bytes:
    """At most ``limit`` bytes of ``path``; :class:`UnreadableFile` if it holds
    more (``what`` it is, in the message when it cannot be read)."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        raise UnreadableFile(
            M_("cannot read {what}: {why}", what=what, why=exc.strerror or str(exc))
        ) from None
    if len(data) > limit:
        raise UnreadableFile(M_("larger than {size}", size=_size(limit)))
    return data


def decode(data: bytes) -> str:
    """UTF-8 text without a byte-order mark; the message names the line."""
    if data.startswith(codecs.BOM_UTF8):
        raise UnreadableFile(
            M_("begins with a byte-order mark (BOM); save it as UTF-8 without one")
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise UnreadableFile(
            M_(
                "line {line}: not UTF-8 text (byte {byte}); save it as UTF-8",
                line=line,
                byte=exc.start,
            )
        ) from None


def read_text(path: str | os.PathLike[str], limit: int, what: str = _THE_FILE) -> str:
    return decode(read_bytes(path, limit, what))


def depth(text: str) -> int:
    """How deeply ``[`` and ``{`` nest in ``text``, outside strings and comments
    (enough for TOML and JSON alike; stops counting past :data:`MAX_DEPTH`)."""
    level = deepest = 0
    quote = ""
    escaped = comment = False
    for ch in text:
        if comment:
            comment = ch != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
        elif ch in "[{":
            level += 1
            if level > deepest:
                deepest = level
                if deepest > MAX_DEPTH:
                    break
        elif ch in "]}":
            level -= 1
    return deepest


def _too_deep() -> UnreadableFile:
    return UnreadableFile(
        M_(
            "nested too deeply to read (arrays or tables inside each other more than"
            " {depth} levels deep)",
            depth=MAX_DEPTH,
        )
    )


_REDEFINED = re.compile(r"Cannot (?:overwrite a value|declare .*? twice).*\(at line (\d+)")
_KEY = re.compile(r"""^\s*(?:\[+\s*)?("[^"]*"|'[^']*'|[A-Za-z0-9_.-]+)""")


def parse_toml(text: str) -> dict[str, Any]:
    """TOML text as a dict; :class:`UnreadableFile` naming the line if it is not
    valid TOML, and the key when one is written twice."""
    if depth(text) > MAX_DEPTH:
        raise _too_deep()
    try:
        return tomllib.loads(text)
    except RecursionError:  # a guard: depth() counts what tomllib recurses on
        raise _too_deep() from None
    except tomllib.TOMLDecodeError as exc:
        again = _REDEFINED.search(str(exc))
        if again:
            number = int(again.group(1))
            lines = text.splitlines()
            found = _KEY.match(lines[number - 1]) if 0 < number <= len(lines) else None
            key = found.group(1).strip("\"'") if found else "a key"
            raise UnreadableFile(
                M_(
                    "line {line}: {key} is written twice; each key (each site) may appear once",
                    line=number,
                    key=key,
                )
            ) from None
        raise UnreadableFile(M_("not valid TOML: {fault}", fault=str(exc))) from None


def read_toml(
    path: str | os.PathLike[str], limit: int = MAX_TOML, what: str = _THE_FILE
) -> tuple[str, dict[str, Any]]:
    """The text of a TOML file and what it says, read within ``limit`` bytes."""
    text = read_text(path, limit, what)
    return text, parse_toml(text)


def parse_json(data: bytes | str) -> Any:
    """JSON (bytes must be UTF-8 without a BOM); :class:`UnreadableFile` naming
    the line and column if it is not valid."""
    text = decode(data) if isinstance(data, bytes) else data
    if depth(text) > MAX_DEPTH:
        raise _too_deep()
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UnreadableFile(
            M_("not valid JSON ({fault})", fault=exc.msg), f"{exc.lineno}:{exc.colno}"
        ) from None
    except RecursionError:
        raise _too_deep() from None
    except ValueError as exc:  # an integer of thousands of digits
        raise UnreadableFile(
            M_("a number with too many digits ({fault})", fault=str(exc)[:160])
        ) from None


def _size(limit: int) -> str:
    if limit % (1024 * 1024) == 0:
        return f"{limit // (1024 * 1024)} MiB"
    return f"{limit // 1024} KiB"


__all__ = [
    "MAX_DEPTH",
    "MAX_RECORD",
    "MAX_TOML",
    "UnreadableFile",
    "decode",
    "depth",
    "parse_json",
    "parse_toml",
    "read_bytes",
    "read_text",
    "read_toml",
]
