"""A profile's codes described by their fields: the Linie 1 board's thousands of
codes from three fields, any description read back exactly, and each mistake
named with its line and fix."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.textfiles import parse_toml
from hardware.errors import ProfileError
from hardware.profiles import PROFILE_DIR, load_profile, parse_profile
from hardware.profiles.codes import MAX_CODES, CodesReader
from hardware.profiles.report import Report

LINIE1 = (PROFILE_DIR / "linie1.toml").read_text(encoding="utf-8")


def _read(text: str) -> tuple[dict[int, str], list[str]]:
    report = Report("codes.toml", text)
    codes = CodesReader(report).read(parse_toml(text).get("codes", {}))
    return codes, report.sorted_problems()


def test_the_linie1_fields_make_exactly_the_codes_of_the_formula() -> None:
    """Every number the microcontroller may send, read the way docs/boards.md
    says (1000 * cars + 500 * stop + 10 * kind + turn), for games of 2 to 5:
    a tile or streetcars, a stop sign only on a tile, five cars at most."""
    tiles = {
        10: "1N", 11: "1E", 20: "2N", 21: "2E", 22: "2S", 23: "2W", 30: "3N", 31: "3E",
        32: "3S", 33: "3W", 40: "4N", 41: "4E", 42: "4S", 43: "4W", 50: "5N", 51: "5E",
        52: "5S", 53: "5W", 60: "6N", 61: "6E", 70: "7N", 71: "7E", 72: "7S", 73: "7W",
        80: "8N", 81: "8E", 82: "8S", 83: "8W", 90: "9N", 100: "10N", 110: "11N", 111: "11E",
        120: "12N", 121: "12E",
    }  # fmt: skip
    expected: dict[int, str] = {}
    for value in range(64 * 1000):
        cars, rest = divmod(value, 1000)
        stop, tile = divmod(rest, 500)
        if tile and tile not in tiles:
            continue
        if (stop and not tile) or bin(cars).count("1") > 5 or not (tile or cars):
            continue
        parts = [tiles[tile]] if tile else []
        parts += ["stop"] if stop else []
        parts += [f"car{n + 1}" for n in range(6) if cars >> n & 1]
        expected[value] = "+".join(parts)
    assert len(expected) == 4346
    assert dict(load_profile("linie1").codes) == expected
    # written out by fields, not one by one
    assert len(LINIE1.splitlines()) < 400 and "\n2522 =" not in LINIE1


@st.composite
def _fields(draw: st.DrawFn) -> list[tuple[str, int, dict[int, str], int, str]]:
    """Fields whose steps keep every combination apart: (name, step, values,
    several (0: one at a time), needs)."""
    count = draw(st.integers(1, 3))
    out: list[tuple[str, int, dict[int, str], int, str]] = []
    step = draw(st.sampled_from([1, 2, 10]))
    for i in range(count):
        name = f"f{i}"
        several = draw(st.sampled_from([0, 0, 1, 2, 3]))
        n = draw(st.integers(1, 5))
        if several:
            values = {1 << b: f"{name}b{b}" for b in range(n)}
        else:
            keys = draw(st.lists(st.integers(1, 40), min_size=1, max_size=n, unique=True))
            values = {k: f"{name}v{k}" for k in keys}
        needs = draw(st.sampled_from(["", *[f"f{j}" for j in range(count) if j != i]]))
        out.append((name, step, values, several, needs))
        step *= 2 * (sum(values) if several else max(values)) + 1
    return out


def _toml(fields: list[tuple[str, int, dict[int, str], int, str]]) -> str:
    lines = ["[codes]"]
    for name, step, values, several, needs in fields:
        lines += ["", f"[codes.fields.{name}]", f"step = {step}"]
        lines += [f"several = {several}"] if several else []
        lines += [f'needs = "{needs}"'] if needs else []
        lines += [f'{v} = "{part}"' for v, part in values.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=80, deadline=None)
@given(_fields())
def test_any_field_description_makes_every_combination_once(
    fields: list[tuple[str, int, dict[int, str], int, str]],
) -> None:
    codes, problems = _read(_toml(fields))
    # the combinations, worked out one by one
    options: list[list[tuple[int, list[str]]]] = []
    for _, step, values, several, _ in fields:
        opts: list[tuple[int, list[str]]] = [(0, [])]
        if several:
            bits = sorted(values.items())
            for k in range(1, several + 1):
                for chosen in combinations(bits, k):
                    opts.append((step * sum(v for v, _ in chosen), [p for _, p in chosen]))
        else:
            opts += [(step * v, [p]) for v, p in values.items()]
        options.append(opts)
    expected: dict[int, str] = {}
    stack: list[tuple[int, int, list[str], set[int]]] = [(0, 0, [], set())]
    while stack:
        i, value, parts, present = stack.pop()
        if i == len(fields):
            ok = all(fields[j][4] == "" or int(fields[j][4][1:]) in present for j in present)
            if present and ok:
                expected[value] = "+".join(parts)
            continue
        for add, names in options[i]:
            stack.append((i + 1, value + add, parts + names, present | ({i} if names else set())))
    if any(v < 2 for v in expected):
        assert any("which is not a code" in p and "codes.toml:" in p for p in problems)
        return
    assert problems == []
    assert codes == expected
    for piece in codes.values():  # each part named once
        assert len(piece.split("+")) == len(set(piece.split("+")))


def _problems(text: str) -> list[str]:
    with pytest.raises(ProfileError) as info:
        parse_profile(text, "linie1-mine.toml")
    return info.value.problems


def _line_of(text: str, start: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith(start))


def test_a_wrong_field_description_is_named_with_its_line_and_fix() -> None:
    text = LINIE1.replace('step = 500\nneeds = "tile"', 'step = "500"\nneeds = "tiles"')
    problems = _problems(text)
    step = _line_of(text, 'step = "500"')
    assert any(
        f"linie1-mine.toml:{step}: codes.fields.stop.step: bad value '500'; expected what one "
        "unit of this field adds" in p
        for p in problems
    ), problems
    assert any(
        f"linie1-mine.toml:{step + 1}: codes.fields.stop.needs: bad value 'tiles'; expected the "
        "name of another field: tile, cars" in p
        for p in problems
    ), problems
    # a streetcar code that is not a bit
    text = LINIE1.replace('4 = "car3"', '3 = "car3"')
    (problem,) = _problems(text)
    assert problem.startswith(f"linie1-mine.toml:{_line_of(text, '3 = ')}: codes.fields.cars.3")
    assert "give each value a bit of its own" in problem
    # a step that makes a stop sign read like a tile
    text = LINIE1.replace("step = 500", "step = 10")
    (problem,) = _problems(text)
    assert "is both" in problem and "choose steps whose parts never add up alike" in problem
    # six streetcars on one cell: no game seats six players
    text = LINIE1.replace("several = 5", "several = 6")
    problems = _problems(text)
    fields = _line_of(text, "[codes.fields.")
    assert problems == [
        f"linie1-mine.toml:{fields}: codes.fields: 63000 ('car1+car2+car3+car4+car5+car6') "
        "and 68 more codes they make are not linie1 pieces; describe only the game's pieces: "
        "fewer values, a lower several, or needs (docs/boards.md describes each game's codes)"
    ]
    # too many codes to read
    text = LINIE1.replace("several = 5", "several = 6\n" + "\n".join(
        f'{1 << b} = "car{b + 1}"' for b in range(6, 20)
    ))  # fmt: skip
    (problem,) = _problems(text)
    assert f"more than {MAX_CODES}" in problem and "describe fewer values" in problem
    # a key that is neither a value nor a setting
    text = LINIE1.replace("several = 5", "several = 5\nmost = 5")
    (problem,) = _problems(text)
    assert problem.startswith(f"linie1-mine.toml:{_line_of(text, 'most')}: codes.fields.cars.most")
    assert "the keys are step, needs, several and values 1 up" in problem
