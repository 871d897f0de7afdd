"""Beeline states as text: the terminal drawing and the JSON form.

It reads a state with the board it is played on (:class:`.board.Board`) and
knows nothing of the rules: the engine hands in what it works out (each RUT,
the line saying whose turn it is).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardctl.engines.beeline.board import SIDES, Board
from boardctl.engines.beeline.values import (
    COLOURS,
    GROUP,
    GROUPS,
    KINDS,
    MARK0,
    MARKS_PER_KIND,
    NODES,
    End,
    Hand,
    State,
    mark_code,
    mark_parts,
    piece_name,
)
from boardctl.message import M_, joined

_WORDS = tuple(k.word for k in KINDS)


def hand_json(hand: Hand) -> dict[str, Any]:
    """``open``: the MARKS of the group being played; ``groups``: groups not
    yet opened (3 of each kind); ``apart``: MARKS held apart after a send-back;
    ``nodes``: NODES in hand."""
    return {
        "open": dict(zip(_WORDS, hand[0:3], strict=True)),
        "groups": hand[3],
        "apart": dict(zip(_WORDS, hand[4:7], strict=True)),
        "nodes": hand[7],
    }


def _hand_from_json(raw: Mapping[str, Any], who: str) -> Hand:
    def count(value: Any, key: str) -> int:
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ValueError(f"{who}'s {key} must be a whole number of pieces, not {value!r}")
        return value

    opened = [count(raw["open"][w], f"open {w}s") for w in _WORDS]
    apart = [count(dict(raw.get("apart", {})).get(w, 0), f"{w}s apart") for w in _WORDS]
    h = (*opened, count(raw["groups"], "groups"), *apart, count(raw["nodes"], "nodes"))
    return (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])


def state_json(geo: Board, state: State) -> dict[str, Any]:
    names = geo.names
    return {
        "cells": {names[i]: piece_name(c) for i, c in enumerate(state.cells) if c},
        "lines": {COLOURS[p]: [names[c] for c in state.lines[p]] for p in (0, 1)},
        "hop": {COLOURS[p]: state.hop[p] for p in (0, 1)},
        "hands": {COLOURS[p]: hand_json(state.hands[p]) for p in (0, 1)},
        "player": state.player,
        "left": state.left,
        "owe": state.owe,
        "end": state.end.name.lower(),
        "winner": None if state.winner < 0 else state.winner,
    }


def state_from_json(geo: Board, data: Mapping[str, Any]) -> State:
    """The state :func:`state_json` wrote, checked piece by piece."""
    codes = {piece_name(1): 1, piece_name(2): 2}
    codes.update({piece_name(c): c for c in range(MARK0, MARK0 + 36)})
    cells = bytearray(geo.size)
    for name, code in dict(data["cells"]).items():
        if name not in geo.index:
            raise ValueError(f"{name!r} is not a cell of layout {geo.layout!r}")
        if code not in codes:
            raise ValueError(f"{name}: unknown piece {code!r}")
        cells[geo.index[name]] = codes[code]
    lines: list[tuple[int, ...]] = []
    seen_marks: set[int] = set()
    for p, who in enumerate(COLOURS):
        raw = [str(c) for c in data["lines"][who]]
        path = []
        for name in raw:
            if name not in geo.index:
                raise ValueError(f"{who}'s line: {name!r} is not a cell")
            path.append(geo.index[name])
        if not path or path[0] != geo.starts[p]:
            raise ValueError(f"{who}'s line must begin at {geo.names[geo.starts[p]]}")
        for i, c in enumerate(path):
            code = cells[c]
            if code == 0:
                raise ValueError(f"{who}'s line passes the empty cell {geo.names[c]}")
            if i and path[i - 1] not in geo.nbr[c]:
                raise ValueError(
                    f"{who}'s line jumps from {geo.names[path[i - 1]]} to {geo.names[c]}"
                )
            if code < MARK0:
                if code != p + 1:
                    raise ValueError(
                        f"{who}'s line passes a NODE of the other colour at {geo.names[c]}"
                    )
                continue
            owner, kind, side = mark_parts(code)
            if owner != p or c in seen_marks:
                raise ValueError(
                    f"{geo.names[c]}: {who}'s line passes a MARK that is not its own or twice"
                )
            seen_marks.add(c)
            entry = geo.side_towards(c, path[i - 1])
            if (side - entry) % 6 not in KINDS[kind].turns:
                word = KINDS[kind].word
                raise ValueError(
                    f"{geo.names[c]}: {'an' if word == 'angle' else 'a'} {word} cannot leave "
                    f"by {SIDES[side]}"
                )
            if i + 1 < len(path) and geo.nbr[c][side] != path[i + 1]:
                raise ValueError(f"{who}'s line leaves the MARK on {geo.names[c]} by another side")
        lines.append(tuple(path))
    for c, code in enumerate(cells):
        if code >= MARK0 and c not in seen_marks:
            raise ValueError(f"the MARK on {geo.names[c]} is in no line")
    hands = tuple(_hand_from_json(data["hands"][who], who) for who in COLOURS)
    nodes_on_board = sum(1 for code in cells if 0 < code < MARK0)
    if nodes_on_board + hands[0][7] + hands[1][7] != 2 * NODES:
        raise ValueError(f"NODES on the board and in hand must make {2 * NODES}")
    for p, who in enumerate(COLOURS):
        for k in range(3):
            on = sum(1 for code in cells if code >= MARK0 and mark_parts(code)[:2] == (p, k))
            held = hands[p][k] + hands[p][4 + k] + GROUP * hands[p][3]
            if on + held != MARKS_PER_KIND or hands[p][3] > GROUPS:
                raise ValueError(f"{who}'s {_WORDS[k]}s on the board and in hand must make 12")
    hop_raw = data["hop"]
    hop = (bool(hop_raw["black"]), bool(hop_raw["red"]))
    player = data["player"]
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    left = data.get("left", 2)
    if left not in (0, 1, 2) or isinstance(left, bool):
        raise ValueError(f"left must be 0, 1 or 2, not {left!r}")
    ends = [e.name.lower() for e in End]
    if data.get("end", "playing") not in ends:
        raise ValueError(f"end must be one of {', '.join(ends)}")
    end = End[str(data.get("end", "playing")).upper()]
    winner = data.get("winner")
    if winner not in (None, 0, 1) or isinstance(winner, bool):
        raise ValueError(f"winner must be 0, 1 or null, not {winner!r}")
    return State(
        bytes(cells),
        (lines[0], lines[1]),
        hop,
        (hands[0], hands[1]),
        player,
        left,
        bool(data.get("owe", False)),
        end,
        -1 if winner is None else winner,
    )


def _cell_text(geo: Board, state: State, i: int) -> str:
    code = state.cells[i]
    if code == 0:
        if (geo.out >> i) & 1:
            return "##"
        if (geo.dark[0] >> i) & 1:
            return " b"
        if (geo.dark[1] >> i) & 1:
            return " r"
        return " ."
    if code < MARK0:
        return "NB" if code == 1 else "NR"
    owner, kind, side = mark_parts(code)
    letter = KINDS[kind].letter
    return (letter if owner == 0 else letter.lower()) + str(side)


def render(
    geo: Board,
    state: State,
    ruts: tuple[list[str], ...],
    footer: str,
    players: Sequence[str] = COLOURS,
) -> str:
    """The board, north at the top: each cell two characters; below it each
    player's hand and RUT (``ruts``: cell names per player, ``players``: their
    names) and ``footer``, in words each surface translates."""
    rows: dict[int, list[int]] = {}
    for i, (r, _) in enumerate(geo.coords):
        rows.setdefault(r, []).append(i)
    xs = {i: 2 * c - r for i, (r, c) in enumerate(geo.coords)}
    lo = min(xs.values())
    lines: list[str] = []
    for r in sorted(rows, reverse=True):
        width = 2 * (max(xs.values()) - lo) + 8
        row = [" "] * width
        for i in rows[r]:
            col = 2 * (xs[i] - lo)
            row[col : col + 2] = _cell_text(geo, state, i)
        first = geo.names[rows[r][0]]
        last = geo.names[rows[r][-1]]
        lines.append(f"{first[0]} " + "".join(row).rstrip() + f"    {first}-{last}")
    for p in (0, 1):
        h = state.hands[p]
        opened = "/".join(str(h[k] + h[4 + k]) for k in range(3))
        rut = " ".join(ruts[p])
        lines.append(
            M_(
                "{player}: open group S/A/H {opened}, {groups} groups, {nodes} NODES; RUT {rut}",
                player=players[p],
                opened=opened,
                groups=h[3],
                nodes=h[7],
                rut=rut,
            )
        )
    lines.append(footer)
    lines.append(
        M_(
            "key: S/A/H black straight/angle/sharp, s/a/h red, digit the side it leaves by "
            "(0 e, 1 ne, 2 nw, 3 w, 4 sw, 5 se); NB/NR NODE black/red up; b/r dark, ## out"
        )
    )
    return joined(lines, "\n")


__all__ = ["hand_json", "mark_code", "render", "state_from_json", "state_json"]
