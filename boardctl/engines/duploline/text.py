"""DuploLine states as text: the terminal drawing and the JSON reader."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boardctl.engines.base import Outcome
from boardctl.engines.duploline.board import POSITION, ROWS, SPANS
from boardctl.engines.duploline.values import COLOURS, End, Phase, State
from boardctl.message import M_, joined

_PIECES = 18
_DISC = {"white-disc": 0, "black-disc": 1}
_RING = {"white-ring": 0, "black-ring": 1}


def render(state: State, players: Sequence[str], task: str, outcome: Outcome) -> str:
    """The board, top row (g) first, with row letters and cell numbers, then
    the pieces in hand, whose turn it is (``task``: what they must do) and a key,
    in words each surface translates (``players``: their names).

    Each cell shows two characters: the disc (``W``/``B``) then the ring
    (``w``/``b``), ``.`` for none; an empty cell shows ``..``.
    """
    lines: list[str] = []
    for r in range(len(ROWS) - 1, -1, -1):
        lo, hi = SPANS[r]
        indent = 4 * lo - 2 * r + 4  # cell (r, c) starts at column 4c - 2r + 6
        cells = []
        for c in range(lo, hi + 1):
            pos = 8 * r + c
            disc = "WB"[0 if (state.discs[0] >> pos) & 1 else 1] if _on(state.discs, pos) else "."
            ring = "wb"[0 if (state.rings[0] >> pos) & 1 else 1] if _on(state.rings, pos) else "."
            cells.append(disc + ring)
        label = f"{ROWS[r]}{lo}-{ROWS[r]}{hi}"
        lines.append(f"{ROWS[r]} " + " " * indent + "  ".join(cells) + f"    {label}")
    numbers = "   ".join(str(c) for c in range(1, 5))
    lines.append(" " * 10 + numbers)
    hands = [
        M_(
            "{player}: discs {discs}, rings {rings}",
            player=name,
            discs=state.hand[2 * p],
            rings=state.hand[2 * p + 1],
        )
        for p, name in enumerate(players)
    ]
    lines.append(M_("in hand: {hands}", hands=joined(hands, "; ")))
    if outcome.over:
        lines.append(M_("game over: {reason}", reason=outcome.reason))
    else:
        lines.append(M_("{player} to act: {task}", player=players[state.player], task=task))
    lines.append(M_("key: W/B disc, w/b ring, Wb = white disc in a black ring, .. empty"))
    return joined(lines, "\n")


def _on(masks: tuple[int, int], pos: int) -> bool:
    return bool(((masks[0] | masks[1]) >> pos) & 1)


def _member(enum: type[Phase] | type[End], key: str, value: object) -> Any:
    names = [m.name.lower() for m in enum]
    if value not in names:
        raise ValueError(f"{key} must be one of {', '.join(names)}, not {value!r}")
    return enum[str(value).upper()]


def state_from_json(data: Mapping[str, Any]) -> State:
    """The state that ``DuploLine.state_to_json`` wrote.

    ``in_hand`` may be left out for a position set up by hand: each player
    then holds the 18 pieces of each kind not on the board.
    """
    discs = [0, 0]
    rings = [0, 0]
    for cell, code in dict(data["cells"]).items():
        if cell not in POSITION:
            raise ValueError(f"{cell!r} is not a cell")
        bit = 1 << POSITION[cell]
        parts = str(code).split("+")
        if len(parts) > 2 or not parts[0]:
            raise ValueError(f"{cell}: bad piece code {code!r}")
        seen = []
        for part in parts:
            if part in _DISC:
                discs[_DISC[part]] |= bit
                seen.append("disc")
            elif part in _RING:
                rings[_RING[part]] |= bit
                seen.append("ring")
            else:
                raise ValueError(f"{cell}: unknown piece {part!r}")
        if len(set(seen)) != len(seen) or seen == ["ring", "disc"]:
            raise ValueError(f"{cell}: {code!r} is not disc, ring or disc+ring")
    on_board = [bin(m).count("1") for m in (discs[0], rings[0], discs[1], rings[1])]
    raw_hand = data.get("in_hand")
    if raw_hand is None:
        hand = [_PIECES - n for n in on_board]
    else:
        hand = [int(raw_hand[colour][kind]) for colour in COLOURS for kind in ("discs", "rings")]
    for n, h in zip(on_board, hand, strict=True):
        if h < 0 or n + h != _PIECES:
            raise ValueError(f"pieces on the board and in hand must make {_PIECES} of each kind")
    player = data["player"]
    if player not in (0, 1) or isinstance(player, bool):
        raise ValueError(f"player must be 0 or 1, not {player!r}")
    phase = _member(Phase, "phase", data.get("phase", "either"))
    end = _member(End, "end", data.get("end", "playing"))
    winner = data.get("winner")
    if winner not in (None, 0, 1) or isinstance(winner, bool):
        raise ValueError(f"winner must be 0, 1 or null, not {winner!r}")
    if (end is End.PLAYING) != (phase is not Phase.OVER):
        raise ValueError("a game that has ended must be in phase 'over', and only then")
    return State(
        (discs[0], discs[1]),
        (rings[0], rings[1]),
        (hand[0], hand[1], hand[2], hand[3]),
        player,
        phase,
        end,
        -1 if winner is None else winner,
    )


__all__ = ["render", "state_from_json"]
