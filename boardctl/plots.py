"""The statistics drawn as SVG: bar charts with their numbers written on. Pure.

Each plot is a whole SVG document (served as ``image/svg+xml`` and shown in an
``<img>``, so it runs nothing), its text escaped, its size fixed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape

from boardctl import stats

WIDTH, HEIGHT = 560, 220
NEUTRAL = "#6b7c93"


def bars(
    title: str, labels: Sequence[str], values: Sequence[int], fills: Sequence[str] = ()
) -> str:
    """A bar chart: one bar per label, its value written above it."""
    top, bottom, left = 30, 40, 10
    n = max(len(values), 1)
    most = max([*values, 1])
    slot = (WIDTH - 2 * left) / n
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(title)}">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        f'<text x="{left}" y="18" font-family="sans-serif" font-size="14" '
        f'font-weight="bold">{escape(title)}</text>',
    ]
    room = HEIGHT - top - bottom
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        h = room * value / most
        x = left + i * slot + slot * 0.15
        y = top + room - h
        fill = fills[i] if i < len(fills) else NEUTRAL
        cx = left + i * slot + slot / 2
        parts.append(
            f'<rect class="bar" data-label="{escape(label)}" data-value="{value}" '
            f'x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{h:.1f}" '
            f'fill="{escape(fill)}"/>'
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{y - 3:.1f}" font-family="sans-serif" font-size="11" '
            f'text-anchor="middle">{value}</text>'
        )
        parts.append(
            f'<text x="{cx:.1f}" y="{HEIGHT - bottom + 14}" font-family="sans-serif" '
            f'font-size="10" text-anchor="middle">{escape(label)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def plot(
    name: str, summary: Mapping[str, Any], palettes: Mapping[str, Mapping[str, str]]
) -> str | None:
    """The plot ``name`` of ``summary``: ``per-day``, ``lengths``, or
    ``wins-<game>`` (wins by colour, filled in each colour of ``palettes[game]``;
    draws grey); None for a plot there is not."""
    if name == "per-day":
        days = summary["per_day"]
        return bars("Games per day", [d[5:] for d in days], [int(v) for v in days.values()])
    if name == "lengths":
        return bars("Game length (moves)", stats.bucket_labels(), list(summary["lengths"]))
    if name.startswith("seats-"):
        entry = summary["by_game"].get(name[6:])
        if entry is None:
            return None
        seats = sorted(entry["seats"], key=int)
        return bars(
            f"Wins by seat: {name[6:]} ({entry['games']} games)",
            [f"seat {s}" for s in seats] + ["draw"],
            [entry["seats"][s] for s in seats] + [entry["draws"]],
        )
    if name.startswith("wins-"):
        game = name[5:]
        entry = summary["by_game"].get(game)
        if entry is None:
            return None
        palette = palettes.get(game, {})
        colours = sorted(entry["colours"], key=lambda c: (-entry["colours"][c], c))
        labels = [*colours, "draw"]
        values = [entry["colours"][c] for c in colours] + [entry["draws"]]
        fills = [palette.get(c, NEUTRAL) for c in colours] + ["#bbbbbb"]
        return bars(f"Wins by colour: {game} ({entry['games']} games)", labels, values, fills)
    return None


def names(summary: Mapping[str, Any]) -> list[str]:
    """Every plot of ``summary``."""
    by_game = sorted(summary["by_game"])
    return ["per-day", "lengths", *(f"{k}-{g}" for g in by_game for k in ("wins", "seats"))]


def palettes(games: Sequence[str]) -> dict[str, dict[str, str]]:
    """Each game's seat colours by name (its default options): the wins' bars
    are filled in the colour they count."""
    from boardctl.engines import create

    out: dict[str, dict[str, str]] = {}
    for game in games[:64]:
        try:
            out[game] = {p.name: p.colour for p in create(game).board().players}
        except Exception:  # a game this version does not play: grey bars
            out[game] = {}
    return out
