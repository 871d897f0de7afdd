"""Pictures of an LED frame laid out as the board is: ANSI text for a terminal
and PNG files. Pure functions of a profile and a frame (PNG is written with
zlib and struct: a few lines, and no imaging library on the Pi)."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from boardctl.board import BoardProfile, Site
from hardware.leds.base import RGB

#: how an LED that is off looks in a picture
OFF_COLOUR: RGB = (55, 55, 55)
BACKGROUND: RGB = (24, 24, 24)
SITE_COLOUR: RGB = (90, 90, 90)
#: the radius of a display's LED (a die's pip), in cell units: pips sit half a cell apart
DISPLAY_SIZE = 0.15


def _colour(pixels: Sequence[RGB], index: int) -> RGB | None:
    if index >= len(pixels):
        return None
    pixel = pixels[index]
    return pixel if any(pixel) else None


def render_ansi(profile: BoardProfile, pixels: Sequence[RGB]) -> str:
    """The frame as lines of text: ``●`` in its colour for a lit LED, ``○`` for
    an LED that is off, ``·`` for a site without LEDs; north is up."""
    if not profile.sites:
        return ""
    xmin = min(s.x for s in profile.sites)
    # one text line per distinct height, north first
    heights = sorted({round(s.y, 2) for s in profile.sites}, reverse=True)
    line_of = {y: n for n, y in enumerate(heights)}
    cells: dict[tuple[int, int], str] = {}
    for site in profile.sites:
        row = line_of[round(site.y, 2)]
        col = round((site.x - xmin) * 4)
        if not site.leds:
            cells.setdefault((row, col), "\x1b[2m·\x1b[0m")
        for k, index in enumerate(site.leds):
            lit = _colour(pixels, index)
            glyph = "○" if lit is None else f"\x1b[38;2;{lit[0]};{lit[1]};{lit[2]}m●\x1b[0m"
            cells[(row, col + k)] = glyph
    rows = max(r for r, _ in cells) + 1
    lines = []
    for r in range(rows):
        used = sorted(c for rr, c in cells if rr == r)
        line = ""
        for c in used:
            line += " " * (c - _visible_len(line)) + cells[(r, c)]
        lines.append(line)
    return "\n".join(lines)


def _visible_len(text: str) -> int:
    count, escape = 0, False
    for ch in text:
        if ch == "\x1b":
            escape = True
        elif escape:
            escape = ch != "m"
        else:
            count += 1
    return count


def png_bytes(width: int, height: int, rows: Sequence[bytes]) -> bytes:
    """An 8-bit RGB PNG of ``rows`` (each ``3 * width`` bytes)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    raw = b"".join(b"\x00" + row for row in rows)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


@dataclass(frozen=True, slots=True)
class Canvas:
    """Where a board's sites fall in a picture of it: ``scale`` pixels per unit
    of the profile's geometry, a margin of one unit around the sites, y up."""

    width: int
    height: int
    xmin: float
    ymax: float
    scale: int

    @classmethod
    def of(cls, profile: BoardProfile, scale: int) -> Canvas:
        xs = [s.x for s in profile.sites] or [0.0]
        ys = [s.y for s in profile.sites] or [0.0]
        xmin, ymax = min(xs), max(ys)
        width = round((max(xs) - xmin + 2) * scale)
        height = round((ymax - min(ys) + 2) * scale)
        return cls(width, height, xmin, ymax, scale)

    def centre(self, site: Site) -> tuple[float, float]:
        """The pixel at the middle of ``site``."""
        return (site.x - self.xmin + 1) * self.scale, (self.ymax - site.y + 1) * self.scale


def render_png(
    profile: BoardProfile, pixels: Sequence[RGB], path: Path | str | None = None, scale: int = 36
) -> bytes:
    """The frame as a PNG picture (one disc per LED at its site); written to
    ``path`` when given. Returns the PNG bytes."""
    canvas = Canvas.of(profile, scale)
    width, height = canvas.width, canvas.height
    image = [bytearray(bytes(BACKGROUND) * width) for _ in range(height)]

    def disc(cx: float, cy: float, radius: float, colour: RGB) -> None:
        r2 = radius * radius
        for y in range(max(0, int(cy - radius)), min(height, int(cy + radius) + 1)):
            for x in range(max(0, int(cx - radius)), min(width, int(cx + radius) + 1)):
                if (x - cx) ** 2 + (y - cy) ** 2 <= r2:
                    image[y][3 * x : 3 * x + 3] = bytes(colour)

    for site in profile.sites:
        cx, cy = canvas.centre(site)
        if not site.leds:
            disc(cx, cy, scale * 0.12, SITE_COLOUR)
            continue
        n = len(site.leds)
        # a display's LEDs are pips, set closer than cells (a die's face)
        size = DISPLAY_SIZE if site.kind == "display" else 0.36
        for k, index in enumerate(site.leds):
            offset = (k - (n - 1) / 2) * scale * 0.3
            disc(cx + offset, cy, scale * size / n**0.5, _colour(pixels, index) or OFF_COLOUR)
    data = png_bytes(width, height, [bytes(row) for row in image])
    if path is not None:
        Path(path).write_bytes(data)
    return data
