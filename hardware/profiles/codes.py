"""A profile's ``[codes]``: sensor values one by one, or described by their fields.

A value written as a key names its piece: ``2 = "p0"``. A board whose sensors
add up a code from parts (Linie 1's ``1000 * cars + 500 * stop + tile``)
describes each part once, under ``[codes.fields.NAME]``, in the order its
parts are named::

    [codes.fields.tile]
    step = 1          # what one unit of this field adds to the code
    10 = "1N"         # a value of the field and the part it names
    11 = "1E"

    [codes.fields.stop]
    step = 500
    needs = "tile"    # only together with a part of that field
    1 = "stop"

    [codes.fields.cars]
    step = 1000
    several = 5       # the values are bits: up to five added up at once
    1 = "car1"
    2 = "car2"

Every combination with at least one part is a code: its value is the sum of
each part's value times its field's step, its piece the parts' names joined by
``+`` in the order the fields are written (2522 is ``2S+stop+car2``). Each
problem names the line it is on and how to fix it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from math import comb
from typing import Any

from boardctl.message import M_
from hardware.profiles.report import Report

#: the most codes a profile's fields may describe
MAX_CODES = 100_000
#: the largest step and field value
MAX_VALUE = 10**9

_NUMBER = re.compile(r"\d+")
_FIELD = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
_FIELD_KEYS = ("step", "needs", "several")


@dataclass(frozen=True, slots=True)
class Field:
    """One part of a code: its step, its values and what they name."""

    name: str
    step: int
    values: tuple[tuple[int, str], ...]
    several: int = 1
    needs: str = ""

    def options(self) -> list[tuple[int, str]]:
        """(what the part adds to the code, its name), one per reading of the
        field; absent (0, "") first."""
        out = [(0, "")]
        if self.several <= 1:
            out += [(v * self.step, name) for v, name in self.values]
            return out
        bits = sorted(self.values)
        for k in range(1, self.several + 1):
            for chosen in combinations(bits, k):
                total = sum(v for v, _ in chosen)
                out.append((total * self.step, "+".join(name for _, name in chosen)))
        out[1:] = sorted(out[1:])
        return out

    def count(self) -> int:
        """How many readings the field has besides absent."""
        if self.several <= 1:
            return len(self.values)
        n = len(self.values)
        return sum(comb(n, k) for k in range(1, self.several + 1))


@dataclass
class CodesReader:
    """Reads ``[codes]`` into value -> piece, reporting to ``r``.

    ``origin`` tells, for each code, where it is written: ``("codes", "2522")``
    for a key, ``("codes.fields", "tile")`` for one the fields make (the first
    field of its parts)."""

    r: Report

    def __post_init__(self) -> None:
        self.origin: dict[int, tuple[str, str]] = {}

    def read(self, t: dict[str, Any]) -> dict[int, str]:
        codes: dict[int, str] = {}
        for key, value in t.items():
            if key == "fields":
                continue
            if not _NUMBER.fullmatch(key) or int(key) < 2:
                self.r.problem(
                    "codes", key, M_("not a sensor code"),
                    M_("codes are whole numbers from 2 up (0 reads empty, 1 present), "
                    "or [codes.fields.NAME] tables"),
                )  # fmt: skip
                continue
            if not isinstance(value, str) or not value:
                self.r.problem(
                    "codes",
                    key,
                    M_("bad value {value}", value=repr(value)),
                    M_('expected a piece code "p0"'),
                )
                continue
            codes[int(key)] = value
            self.origin[int(key)] = ("codes", key)
        if "fields" in t:
            fields = self.fields(t["fields"])
            if fields:
                self.combine(fields, codes)
        return codes

    # -- the fields

    def fields(self, t: Any) -> list[Field]:
        if not isinstance(t, dict) or not t:
            self.r.problem(
                "codes", "fields", M_("expected tables of fields"),
                M_("write each field as [codes.fields.NAME] with step = N and its values"),
            )  # fmt: skip
            return []
        fields: list[Field] = []
        names = list(t)
        for name, entry in t.items():
            field = self.field(name, entry, names)
            if field is not None:
                fields.append(field)
        if len(fields) < len(t):
            return []  # a bad field: its codes would be wrong, and reported as such
        total = 1
        for f in fields:
            total *= f.count() + 1
        if total - 1 > MAX_CODES:
            self.r.problem(
                "codes",
                "fields",
                M_(
                    "the fields describe {count} codes, more than {most}",
                    count=total - 1,
                    most=MAX_CODES,
                ),
                M_("describe fewer values, or lower several"),
            )
            return []
        return fields

    def field(self, name: str, entry: Any, names: list[str]) -> Field | None:
        where = f"codes.fields.{name}"
        if not _FIELD.fullmatch(name):
            self.r.problem(
                "codes.fields", name, M_("not a field name"),
                M_("name a field with letters, digits, - and _, starting with a letter"),
            )  # fmt: skip
            return None
        if not isinstance(entry, dict):
            self.r.problem(
                "codes.fields", name, M_("expected a table"),
                M_("write [codes.fields.{name}] with step = N and a line per value", name=name),
            )  # fmt: skip
            return None
        bad = len(self.r.problems)
        step = self.r.get(
            where, entry, "step", int, 0, required=True,
            check=lambda v: 1 <= v <= MAX_VALUE,
            expect=M_("what one unit of this field adds to the code, e.g. step = 500"),
        )  # fmt: skip
        several = self.r.get(
            where, entry, "several", int, 1, check=lambda v: 1 <= v <= 32,
            expect=M_("how many of the values (bits) may be added up at once, 1..32"),
        )  # fmt: skip
        others = [n for n in names if n != name]
        needs = self.r.get(
            where, entry, "needs", str, "", check=lambda v: v in others,
            expect=(
                M_("the name of another field: {fields}", fields=", ".join(others))
                if others
                else M_("the name of another field: there is none")
            ),
        )  # fmt: skip
        values: list[tuple[int, str]] = []
        for key, value in entry.items():
            if key in _FIELD_KEYS:
                continue
            if not _NUMBER.fullmatch(key) or not 1 <= int(key) <= MAX_VALUE:
                self.r.problem(
                    where,
                    key,
                    M_("not a value of the field"),
                    M_(
                        "the keys are {keys} and values 1 up (0 is the field absent)",
                        keys=", ".join(_FIELD_KEYS),
                    ),
                )
                continue
            if not isinstance(value, str) or not value or "+" in value:
                self.r.problem(
                    where, key, M_("bad value {value}", value=repr(value)),
                    M_('expected the part it names, without "+" (the parts are joined by it)'),
                )  # fmt: skip
                continue
            if "several" in entry and int(key) & (int(key) - 1):
                self.r.problem(
                    where, key, M_("{key} is not a bit (several values add up)", key=key),
                    M_("give each value a bit of its own: 1, 2, 4, 8, ..."),
                )  # fmt: skip
                continue
            values.append((int(key), value))
        if not values and len(self.r.problems) == bad:
            self.r.problem(
                where, "", M_("names no value"), M_('add a line per value, e.g. 1 = "stop"')
            )
        if len(self.r.problems) > bad:
            return None
        return Field(name, step, tuple(values), several, needs)

    def combine(self, fields: list[Field], codes: dict[int, str]) -> None:
        """Every combination of the fields' parts, added to ``codes``."""
        index = {f.name: i for i, f in enumerate(fields)}
        needs = [(1 << i, 1 << index[f.needs]) for i, f in enumerate(fields) if f.needs]
        allowed = {m for m in range(1, 1 << len(fields)) if all(m & j for i, j in needs if m & i)}
        # (value, piece, the fields present as bits), one field after another
        made: list[tuple[int, str, int]] = [(0, "", 0)]
        for i, f in enumerate(fields):
            bit = 1 << i
            parts = f.options()[1:]
            made += [
                (v + add, f"{piece}+{part}" if piece else part, m | bit)
                for v, piece, m in made
                for add, part in parts
            ]
        for value, piece, m in made:
            if m not in allowed:
                continue
            first = fields[(m & -m).bit_length() - 1].name
            if value < 2:
                self.r.problem(
                    f"codes.fields.{first}",
                    "",
                    M_("{piece} reads {value}, which is not a code", piece=piece, value=value),
                    M_("0 reads empty and 1 present: start the values at 2 or raise the step"),
                )
                return
            if value in codes:
                table, key = self.origin[value]
                self.r.problem(
                    table,
                    key,
                    M_(
                        "{value} is both {codes} and {piece}",
                        value=value,
                        codes=repr(codes[value]),
                        piece=repr(piece),
                    ),
                    M_("remove the line, or choose steps whose parts never add up alike"),
                )
                return
            codes[value] = piece
            self.origin[value] = ("codes.fields", first)
