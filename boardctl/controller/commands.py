"""What an operator (or the buttons) asks of the controller: a new game, the
next variant, undo, an option chosen, chance's outcome given, an action told,
another move of the computer's.

Each command checks that it may be carried out now and says why not with a
:class:`ControllerError`; it then goes through the machine's triggers like a
move read from the board. Called on the loop's thread, through the
:class:`~.machine.Controller`'s methods of the same names.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardctl.controller import chance as chances
from boardctl.controller.choosing import pick
from boardctl.controller.opponent import person_unplayable, unplayable
from boardctl.controller.phases import Step, can
from boardctl.controller.view import PLAYING, Phase, phase_words
from boardctl.engines import Engine
from boardctl.errors import BoardctlError
from boardctl.message import M_, said
from boardctl.seats import COMPUTER, SeatError, Seats

if TYPE_CHECKING:
    from boardctl.controller.machine import Controller

log = logging.getLogger(__name__)


class ControllerError(BoardctlError, ValueError):
    """A command the controller cannot carry out now (it says why)."""


def new(
    c: Controller,
    game: str | None,
    options: Mapping[str, Any] | None,
    now: float,
    seats: Seats | None = None,
) -> None:
    """An operator starts a new game (the profile's game, other options
    allowed; ``seats``: who plays each seat, else as the last game)."""
    c.now = now
    game = game or c.engine.name
    if game != c.profile.game:
        raise ControllerError(
            M_(
                "this board ({board}) plays {game}, not {asked}",
                board=c.profile.name,
                game=c.profile.game,
                asked=game,
            )
        )
    if not can("new_game", c.state):
        raise ControllerError(
            M_(
                "cannot start a game while {phase}: wait for the sensors",
                phase=phase_words(c.state.value),
            )
        )
    engine = c.engines(game, options if options is not None else c.engine.options_json())
    wanted = c.next_seats if seats is None else seats
    engine = engine.seated(wanted.computers)
    chosen = checked_seats(c, wanted, engine)
    c.next_game = (engine.name, engine.options_json())
    c.next_seats = chosen
    c.fire("new_game", engine)
    c.update(now)


def next_variant(c: Controller, now: float) -> None:
    """The mode button: a new game in the game's next variant (Shiftago:
    Express, then Expert), other options kept. A game without variants
    has nothing to switch."""
    options = next_options(c)
    log.info("mode: a new game of %s %s", c.engine.name, options["variant"])
    new(c, c.engine.name, options, now)


def next_options(c: Controller) -> dict[str, Any]:
    """The options of a game in the next variant (:func:`next_variant`)."""
    variants = c.engine.variants
    if not variants:
        raise ControllerError(M_("{game} has no variants to switch between", game=c.engine.name))
    options = dict(c.engine.options_json())
    current = options.get("variant", variants[0])
    index = variants.index(current) if current in variants else -1
    options["variant"] = variants[(index + 1) % len(variants)]
    return options


def undo(c: Controller, now: float) -> str:
    """An operator takes the last action back (with the outcomes the
    controller drew after it); the board must follow. Returns the public
    text of the last action taken back."""
    c.now = now
    if not c.match.actions:
        raise ControllerError(M_("nothing to undo: no action has been played"))
    if not can("take_back", c.state):
        raise ControllerError(M_("cannot undo while {phase}", phase=phase_words(c.state.value)))
    if c.opponent.seats.any_remote:
        raise ControllerError(
            M_("a game with another board is not undone: both boards keep the same record")
        )
    depth = chances.undo_depth(
        c.engine, c.match.states, drawn=lambda state: c.draws.drawn(c.engine, state)
    )
    if depth and c.opponent.seats.any_computer:
        depth = _undo_past_computer(c, depth)
    if depth == 0:
        raise ControllerError(
            M_("nothing to undo: only the computer and chance have acted")
            if c.opponent.seats.any_computer
            else M_("nothing to undo: only chance has acted")
        )
    text = c.public_moves[-depth]
    c.fire("take_back", depth, True)
    c.update(now)
    return text


def _undo_past_computer(c: Controller, depth: int) -> int:
    """How far an undo goes with the computer in the game: back to the
    start of the latest turn of a seat played by hands, the computer's
    moves after it (and chance's outcomes) taken back with it. 0 when
    no hands have acted."""
    engine, states = c.engine, c.match.states
    first = len(c.match.actions) - depth

    def by_hands(i: int) -> bool:
        actor = engine.actor(states[i])
        return isinstance(actor, int) and c.opponent.seats.computer(actor) is None

    while first >= 0 and not by_hands(first):
        first -= 1
    if first < 0:
        return 0
    seat = engine.actor(states[first])
    while first > 0 and engine.actor(states[first - 1]) == seat:
        first -= 1
    return len(c.match.actions) - first


def choose(c: Controller, text: str, now: float) -> str:
    """An operator picks an option of the choice on offer, by its text
    (as ``status`` lists it under ``choices``) or its number (1 first)."""
    c.now = now
    if c.state is not Phase.CHOOSING:
        raise ControllerError(
            M_("there is nothing to choose while {phase}", phase=phase_words(c.state.value))
        )
    try:
        offer = pick(c.offers(), text)
    except ValueError as exc:
        raise ControllerError(said(exc)) from None
    c.take(offer)
    c.update(now)
    return offer.text


def roll(c: Controller, text: str, now: float) -> str:
    """An operator gives chance's outcome (a die thrown by hand), in the
    game's notation."""
    c.now = now
    state = c.match.state
    if not chances.chance_acts(c.engine, state):
        raise ControllerError(M_("chance does not act now: it is a player's turn"))
    refused = c.draws.refusal(c.engine, state)
    if refused is not None:
        raise ControllerError(refused)
    if c.state is not Phase.AWAITING_MOVE:
        raise ControllerError(
            M_(
                "cannot take chance's outcome while {phase}: put the board right first",
                phase=phase_words(c.state.value),
            )
        )
    try:
        action = c.engine.parse_action(text)
    except ValueError as exc:
        raise ControllerError(said(exc)) from None
    outcomes = [a for a, _ in c.engine.chance_outcomes(state)]
    if action not in outcomes:
        # public texts: the outcomes left may tell what was dealt in secret
        listed = ", ".join(sorted({c.engine.public_action(state, a) for a in outcomes}))
        raise ControllerError(
            M_(
                "{text} is not an outcome now; the outcomes are {outcomes}",
                text=repr(text),
                outcomes=listed,
            )
        )
    public = c.engine.public_action(state, action)
    c.fire("move_made", (Step(action, c.engine.apply(state, action)),))
    c.update(now)
    return public


def play(c: Controller, text: str, now: float, ply: int | None = None) -> str:
    """A person tells a player's action, in the game's notation: one the
    board cannot show (``Engine.told``: a pass, a route card shown), or
    any legal action, which the board must then follow. Played at once
    whatever the board shows; the board is then judged against the game
    after it (the pieces the action puts or takes away are lit as what to
    put right). ``ply``, when given, is the number of actions the teller
    saw played: a tell sent twice, or after the game moved on, is refused.
    Returns the action's public text."""
    c.now = now
    played = len(c.match.actions)
    if ply is not None and ply != played:
        raise ControllerError(
            M_(
                "{text} was told after {ply} actions, and {played} are played now: "
                "the game has moved on (told twice?); tell it again if it still holds",
                text=repr(text),
                ply=ply,
                played=played,
            )
        )
    if c.state is Phase.ATTRACT:  # a person telling an action is no idle room
        c.board.activity_at = now
        c.update(now)
    state = c.match.state
    if c.state not in PLAYING:
        raise ControllerError(
            M_("cannot play an action while {phase}", phase=phase_words(c.state.value))
        )
    if chances.chance_acts(c.engine, state):
        raise ControllerError(
            M_("chance acts now, not a player: give its outcome with `boardctl roll`")
        )
    computer = c.opponent.seat_to_act(c.engine, state)
    if computer is not None and computer.person:
        raise ControllerError(
            M_(
                "{player} plays this turn: their move is shown once they choose it",
                player=computer.who,
            )
        )
    if computer is not None:
        raise ControllerError(
            M_(
                "the computer plays this turn (level {level}): make the move it shows, "
                "or ask for another (`boardctl another`)",
                level=computer.level,
            )
        )
    try:
        action = c.engine.parse_action(text)
    except ValueError as exc:
        raise ControllerError(said(exc)) from None
    why = c.engine.why_illegal(state, action)
    if why is not None:
        if not c.engine.hints_public(state):  # the reason may name a secret ("your line 2")
            raise ControllerError(M_("{text} is not a legal action now", text=repr(text)))
        raise ControllerError(M_("{text} cannot be played now: {why}", text=repr(text), why=why))
    public = c.engine.public_action(state, action)
    before = c.reconciler.expect(state).key
    c.fire("move_made", (Step(action, c.engine.apply(state, action)),))
    log.info("told %s", public)
    expected = c.reconciler.expect(c.match.state).key
    if expected != before:
        # the board must follow: nothing it shows counts until it has
        c.board.refuse(expected, behind=True)
        c.judge(deep=c.settled_for() >= 0)
    c.update(now)
    return public


def another(c: Controller, now: float) -> str:
    """Ask the computer for another move than the one it shows; returns
    the move given up, in public notation."""
    c.now = now
    shown = c.computer_view()
    if shown is not None and shown.kind != COMPUTER:
        seat = c.opponent.seats[shown.seat]
        raise ControllerError(
            M_("{player} chose this move: make it on the board as it is lit", player=seat.who)
        )
    if shown is None or shown.doing != "ready":
        raise ControllerError(
            M_("the computer shows no move now: another is asked for once it shows one")
        )
    try:
        c.opponent.another(c.engine, c.match)
    except ValueError as exc:
        raise ControllerError(said(exc)) from None
    ply = len(c.match.actions)
    c.recorder.asked(ply, c.opponent.tried_at(ply, c.match.state))
    log.info("another move asked for, instead of %s", shown.texts[0])
    c.update(now)
    return shown.texts[0]


def checked_seats(c: Controller, seats: Seats, engine: Engine[Any, Any]) -> Seats:
    """``seats`` for a game of ``engine``, without seeds (each game draws
    its own); refused when they do not fit it or when this controller has
    no computer to seat."""
    try:
        seats.check(engine.players, engine.name)
    except SeatError as exc:
        raise ControllerError(said(exc)) from None
    if seats.any_computer and (c.opponent.thinker is None or c.seeds is None):
        raise ControllerError(
            M_(
                "seats {seats}: this controller has no computer player; every seat is "
                "played by hands",
                seats=repr(str(seats)),
            )
        )
    if seats.any_remote and (c.opponent.remote is None or c.seeds is None):
        raise ControllerError(
            M_(
                "seats {seats}: this board is on no broker, so no other board plays here: "
                "set [mqtt] broker (docs/fleet.md)",
                seats=repr(str(seats)),
            )
        )
    why = unplayable(engine) if seats.any_computer else None
    if seats.any_phone and c.opponent.phone is None:
        raise ControllerError(
            M_(
                "seats {seats}: this board has no web pages, so no phone plays here: "
                "set [web] listen (docs/web.md)",
                seats=repr(str(seats)),
            )
        )
    if why is None and seats.any_remote:
        why = person_unplayable(engine)
    if why is None and seats.any_phone:
        why = person_unplayable(engine, phone=True)
    if why is not None:
        raise ControllerError(M_("seats {seats}: {why}", seats=repr(str(seats)), why=why))
    # a remote seat keeps the number of the game it accepts; a computer's
    # seed is drawn when the game begins
    return seats.unseeded(keep_remote=True)
