"""Finding where a key is written in a profile, and reporting what is wrong there.

Every problem names the file, the line, the key (``sites.a1``), what is wrong
and how to fix it; :class:`Report` collects them all before anything is raised,
and gives them back in the order of the lines they are on.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from boardctl.message import M_

_HEADER = re.compile(r"^\s*\[\s*([^\]\[]+?)\s*\]\s*(#.*)?$")
_KEY = re.compile(r"""^\s*("([^"]+)"|'([^']+)'|([A-Za-z0-9_-]+))\s*=""")


def key_lines(text: str) -> dict[tuple[str, str], int]:
    """(table, key) -> line number, for ``key = ...`` lines (tables as dotted paths).

    A table header ``[a.b]`` is also the line of key ``b`` in table ``a`` (a site
    written as ``[sites.a1]`` is found at its header), and of ``[a]`` when that
    has no header of its own."""
    lines: dict[tuple[str, str], int] = {}
    table = ""
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line)
        if header:
            table = ".".join(_header_parts(header.group(1)))
            lines.setdefault(("", table), number)
            parts = _header_parts(header.group(1))
            for n in range(1, len(parts)):
                parent = ".".join(parts[:n])
                lines.setdefault(("", parent), number)
                lines.setdefault((parent, parts[n]), number)
            continue
        key = _KEY.match(line)
        if key:
            name = key.group(2) or key.group(3) or key.group(4)
            lines.setdefault((table, name), number)
    return lines


def _header_parts(header: str) -> list[str]:
    """The keys of a table header's dotted path, quotes taken off: ``sites."a1"``
    is ``["sites", "a1"]``."""
    return [
        part.group(2) or part.group(3) or part.group(4)
        for part in re.finditer(r"""\s*("([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))\s*\.?""", header)
    ]


def table_header(line: str) -> list[str] | None:
    """The keys of the table a ``[a.b]`` header line opens, or None for any other line."""
    header = _HEADER.match(line.rstrip("\r\n"))
    return _header_parts(header.group(1)) if header else None


@dataclass
class Report:
    """The problems of one profile file; ``source`` names it in every message."""

    source: str
    text: str
    problems: list[str] = field(default_factory=list)
    _order: list[int] = field(default_factory=list)
    #: the tables a problem was reported in
    _tables: set[str] = field(default_factory=set)

    def sorted_problems(self) -> list[str]:
        """The problems in the order of the lines they are on."""
        return [
            p for _, p in sorted(zip(self._order, self.problems, strict=True), key=lambda t: t[0])
        ]

    def __post_init__(self) -> None:
        self._lines = key_lines(self.text)

    # -- reporting

    def problem(self, table: str, key: str, message: str, fix: str) -> None:
        parent, _, last = table.rpartition(".")
        line = (
            self._lines.get((table, key))
            or self._lines.get(("", table))
            or (self._lines.get((parent, last)) if parent else None)
        )
        where = f"{self.source}:{line}" if line else self.source
        name = f"{table}.{key}" if table and key else table or key
        self.problems.append(
            M_(
                "{where}: {name}: {problem}; {fix}",
                where=where,
                name=name,
                problem=message,
                fix=fix,
            )
        )
        self._order.append(line or 0)
        self._tables.add(table.partition(".")[0] or key)

    def reported_in(self, table: str) -> bool:
        """Whether a problem was reported in ``table`` or a table inside it."""
        return table in self._tables

    def unknown_keys(self, table: str, got: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
        for key in got:
            if key not in allowed:
                self.problem(
                    table,
                    key,
                    M_("unknown key"),
                    M_("the keys here are {keys}", keys=", ".join(allowed)),
                )

    # -- typed getters: report and return the default when wrong

    def get(
        self,
        table: str,
        data: Mapping[str, Any],
        key: str,
        kind: type | tuple[type, ...],
        default: Any = None,
        *,
        required: bool = False,
        check: Callable[[Any], bool] | None = None,
        expect: str = "",
    ) -> Any:
        if key not in data:
            if required:
                self.problem(
                    table,
                    key,
                    M_("missing"),
                    M_("add {key} = {value}", key=key, value=expect or "..."),
                )
            return default
        value = data[key]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        wrong_type = not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds)
        if wrong_type or (check is not None and not check(value)):
            self.problem(
                table,
                key,
                M_("bad value {value}", value=repr(value)),
                M_("expected {what}", what=expect),
            )
            return default
        return value

    def table(self, data: Mapping[str, Any], key: str, *, required: bool) -> dict[str, Any]:
        value = data.get(key)
        if value is None:
            if required:
                self.problem(key, "", M_("missing table"), M_("add a [{table}] table", table=key))
            return {}
        if not isinstance(value, dict):
            self.problem("", key, M_("expected a table"), M_("write it as [{table}]", table=key))
            return {}
        return value
