"""Choosing: the options a mover picks from when the board alone cannot say.

Two things open a choice. The engine may say that the mover now picks one of
several options shown side by side (:meth:`~boardctl.engines.base.Engine.choosing`,
Shiftago's line to score): the options are the legal actions. Or the settled
board is explained by several legal actions that leave the very same board but
different games (:class:`~.reconcile.Ambiguous`: which end of a line a stick
extends, on a board that senses only presence): the options are those
candidates. Each :class:`Offer` has the text an operator types and the sites
its LEDs light. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from boardctl.controller.phases import Step
from boardctl.controller.reconcile import Ambiguous, Path, Reconciler, Verdict, Waiting
from boardctl.engines import Engine


@dataclass(frozen=True, slots=True)
class Offer:
    """One option: its text (the public notation of its actions, joined by
    ``then``), the sites to light for it, and the steps that play it."""

    texts: tuple[str, ...]
    sites: frozenset[str]
    steps: tuple[Step, ...]

    @property
    def text(self) -> str:
        return " then ".join(self.texts)


def steps_of(path: Path) -> tuple[Step, ...]:
    """The steps that play a path of reconciliation options."""
    return tuple(Step(o.action, o.state, o.changed) for o in path)


def offer_of(engine: Engine[Any, Any], state: Any, path: Path) -> Offer:
    """The offer of playing ``path`` from ``state``."""
    texts: list[str] = []
    sites: set[str] = set()
    before = state
    for option in path:
        texts.append(engine.public_action(before, option.action))
        sites |= engine.highlight(before, option.action)
        before = option.state
    return Offer(tuple(texts), frozenset(sites), steps_of(path))


def offers(
    engine: Engine[Any, Any], reconciler: Reconciler, state: Any, verdict: Verdict
) -> tuple[Offer, ...]:
    """The options open in ``state`` with the board judged ``verdict``
    (empty when there is no choice to make)."""
    if isinstance(verdict, Ambiguous):
        return tuple(offer_of(engine, state, path) for path in verdict.candidates)
    if isinstance(verdict, Waiting) and engine.choosing(state):
        return tuple(offer_of(engine, state, (o,)) for o in reconciler.expect(state).options)
    return ()


def pick(options: Sequence[Offer], text: str) -> Offer:
    """The option an operator named: by its text or its number (1 first).
    :class:`ValueError` naming the options when none fits."""
    wanted = text.strip()
    named = [o for o in options if o.text == wanted]
    if len(named) == 1:
        return named[0]
    if wanted.isdigit() and 1 <= int(wanted) <= len(options):
        return options[int(wanted) - 1]
    listed = ", ".join(f"{n} {o.text}" for n, o in enumerate(options, start=1))
    if len(named) > 1:
        raise ValueError(f"{wanted!r} names several options; choose one by number: {listed}")
    raise ValueError(f"{wanted!r} is not an option; the options are {listed}")
