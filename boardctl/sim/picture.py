"""A picture of a board as a person sees it: pieces on their sites and the LEDs'
glow around them, drawn from a profile, a layout and an LED frame.

``python -m boardctl.sim.picture OUT.png`` plays the opening of a Shiftago
Expert game on the simulated colour board, through the real controller and
scene builder, and draws the moment the mover must choose a scoring line.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

from boardctl.board import BoardProfile
from boardctl.engines import BoardSpec, create
from hardware.leds.render import DISPLAY_SIZE, Canvas, png_bytes

RGB = tuple[int, int, int]

BOARD = (58, 44, 32)
HOLE = (30, 22, 16)
#: a piece the game does not declare
UNKNOWN: RGB = (160, 160, 160)


def _rgb(colour: str) -> RGB:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _looks(spec: BoardSpec) -> dict[str, tuple[RGB, bool]]:
    """Each single piece's colour (its owner's, as the game declares it) and
    whether it is drawn as a ring: a part that goes around another in some
    piece made of parts (a DuploLine ring around a disc)."""
    around = {code for piece in spec.pieces for code in piece.parts[1:]}
    looks = {}
    for piece in spec.singles():
        owner = piece.owner
        known = owner is not None and owner < len(spec.players)
        colour = _rgb(spec.players[owner].colour) if known and owner is not None else UNKNOWN
        looks[piece.code] = (colour, piece.code in around)
    return looks


def board_picture(
    profile: BoardProfile,
    layout: Mapping[str, str],
    pixels: Sequence[RGB],
    scale: int = 48,
) -> bytes:
    """The board as a PNG: a hole per site, the LEDs' glow around it, the piece
    on it in its owner's colour (a part that goes around another drawn as a
    circle outline, any other piece filled)."""
    spec = create(profile.game, profile.game_options).board()
    looks = _looks(spec)
    canvas = Canvas.of(profile, scale)
    width, height = canvas.width, canvas.height
    image = [bytearray(bytes(BOARD) * width) for _ in range(height)]

    def paint(cx: float, cy: float, outer: float, inner: float, colour: RGB, fade: bool) -> None:
        for y in range(max(0, int(cy - outer)), min(height, int(cy + outer) + 2)):
            row = image[y]
            for x in range(max(0, int(cx - outer)), min(width, int(cx + outer) + 2)):
                d = math.hypot(x - cx, y - cy)
                if inner <= d <= outer:
                    a = 1.0 - (d - inner) / max(outer - inner, 1e-9) if fade else 1.0
                    old = row[3 * x : 3 * x + 3]
                    row[3 * x : 3 * x + 3] = bytes(
                        round(o + (c - o) * a) for o, c in zip(old, colour, strict=True)
                    )

    for site in profile.sites:
        cx, cy = canvas.centre(site)
        lit = [pixels[i] for i in site.leds if i < len(pixels) and any(pixels[i])]
        if site.kind == "display":  # a pip (a die's face): its LED itself, nothing on it
            pip = tuple(max(p[k] for p in lit) for k in range(3)) if lit else HOLE
            paint(cx, cy, scale * DISPLAY_SIZE, 0, pip, fade=False)  # type: ignore[arg-type]
            continue
        if lit:
            glow = tuple(max(p[k] for p in lit) for k in range(3))
            paint(cx, cy, scale * 0.5, scale * 0.3, glow, fade=True)  # type: ignore[arg-type]
        paint(cx, cy, scale * 0.3, 0, HOLE, fade=False)
        piece = layout.get(site.name)
        if piece is None:
            continue
        declared = spec.piece(piece)
        for part in declared.parts if declared is not None and declared.parts else (piece,):
            colour, ring = looks.get(part, (UNKNOWN, False))
            if ring:
                paint(cx, cy, scale * 0.36, scale * 0.26, colour, fade=False)
            else:
                paint(cx, cy, scale * 0.25, 0, colour, fade=False)
                paint(cx - scale * 0.08, cy - scale * 0.08, scale * 0.06, 0, (250, 250, 250), False)
    return png_bytes(width, height, [bytes(row) for row in image])


def shiftago_scoring_moment() -> tuple[BoardProfile, dict[str, str], tuple[RGB, ...]]:
    """A Shiftago Expert game on the colour board, up to the moment player 0 must
    choose which line to score; its layout and the frame the LEDs show."""
    from boardctl.controller.machine import Controller
    from boardctl.controller.scenes import Palette, render
    from boardctl.sensing import LinkUp, SensorChange, SensorSnapshot
    from hardware.profiles import load_profile

    profile = load_profile("shiftago-colour")
    controller = Controller(profile, options={"players": 2, "variant": "expert"})
    engine = controller.engine
    back = {piece: value for value, piece in profile.codes.items()}
    now = 0.0
    controller.start(now)
    controller.feed(LinkUp("picture"), now)
    controller.feed(SensorSnapshot((0,) * profile.channel_count), now)
    moves = ["Sa", "Sg", "Sb", "Sf", "Sc", "Ng", "Sd", "Nf", "Se"]
    for text in moves:
        state = controller.match.state
        before = dict(engine.layout(state))
        after = engine.layout(engine.apply(state, engine.parse_action(text)))
        for site in sorted(set(before) | set(after)):
            if before.get(site) != after.get(site):
                channel = profile.site(site).channel
                assert channel is not None
                now += 0.01
                controller.feed(SensorChange(channel, back.get(after.get(site, ""), 0)), now)
        now += 1.0
        controller.tick(now)
    layout = dict(engine.layout(controller.match.state))
    palette = Palette.choose((), profile.palette, engine.board().players, profile.palette_note)
    frame = render(controller.view(), profile, palette, now)
    return profile, layout, tuple(frame)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("output", help="the PNG file to write")
    args = parser.parse_args(argv)
    profile, layout, frame = shiftago_scoring_moment()
    Path(args.output).write_bytes(board_picture(profile, layout, frame))
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
