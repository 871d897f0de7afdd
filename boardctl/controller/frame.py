"""An LED frame: the bytes the LEDs are lit with, read as one colour per LED.

A :class:`Frame` holds three bytes, ``r g b``, per LED of a chain, in the
chain's order. The scene painter writes them once (:mod:`.scenes`), and the
LED backends scale them for brightness and gamma, order them for the chips and
send them as bytes (``hardware/leds``), without turning them into Python
tuples on the way. Where people and tests read a frame, it reads as a sequence
of ``(r, g, b)``, one per LED, and it equals the tuple of those colours. Pure.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import overload

RGB = tuple[int, int, int]


class Frame(Sequence[RGB]):
    """The colours of an LED chain as bytes (``data``: ``r g b`` per LED)."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        if len(data) % 3:
            raise ValueError(f"a frame of {len(data)} bytes: give three (r, g, b) per LED")
        self.data = data

    @classmethod
    def of(cls, pixels: Iterable[Sequence[int]]) -> Frame:
        """The frame of ``pixels``, one ``(r, g, b)`` per LED, each 0..255;
        :class:`ValueError` naming the LED that is not."""
        out = bytearray()
        for i, px in enumerate(pixels):
            if len(px) != 3 or not all(0 <= c <= 255 for c in px):
                raise ValueError(f"LED {i} is {px!r}: give (r, g, b) with each value in 0..255")
            out += bytes(px)
        return cls(bytes(out))

    @classmethod
    def dark(cls, count: int) -> Frame:
        """Every LED of a chain of ``count`` off."""
        return cls(bytes(3 * count))

    def __len__(self) -> int:
        return len(self.data) // 3

    @overload
    def __getitem__(self, index: int) -> RGB: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[RGB, ...]: ...

    def __getitem__(self, index: int | slice) -> RGB | tuple[RGB, ...]:
        if isinstance(index, slice):
            return tuple(self)[index]
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"LED {index} of a frame of {n}")
        d = self.data
        i = 3 * index
        return (d[i], d[i + 1], d[i + 2])

    def __iter__(self) -> Iterator[RGB]:
        d = self.data
        return zip(d[0::3], d[1::3], d[2::3], strict=True)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Frame):
            return self.data == other.data
        if isinstance(other, tuple | list):
            return tuple(self) == tuple(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.data)

    def __bytes__(self) -> bytes:
        return self.data

    def __repr__(self) -> str:
        return f"Frame({tuple(self)!r})"
