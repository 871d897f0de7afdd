"""Linie 1's scripted game for ``boardctl sim --demo linie1`` and the board
tests: pure data.

A whole 2-player game on the Goldsieber board. Player 1 holds line 2 (yellow)
and route card B4 (stops D, M and B) and lays the 24 tiles of a route from
t2a to t2b, earning the stop signs of D on b10, M on g4 and B on i10; player 2
lays tiles elsewhere and exchanges three of them. Halfway, player 1 tries the
trip too early: the streetcar goes into t2a, the cards are shown and told
(``play start:t2a/B4``), the route is not complete, the trip is caught and the
streetcar comes off again. Once the route is built player 1 starts the trip
at t2a (the cards known, the board shows it) and drives, the die showing H
each time, from stop to stop into t2b and wins. The draws are chosen so that
the hands hold the tiles laid.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.linie1.engine import Linie1
from boardctl.engines.linie1.values import Draw, Drive, Lay, Roll, Start
from boardctl.engines.match import Match
from boardctl.errors import IllegalMove
from boardctl.message import M_, Mp_

#: the game's actions in the engine's notation, draws and rolls included
MOVES: tuple[str, ...] = tuple(
    " ".join(
        (
            "a10:1E b10:1E draw:1 draw:1 a1:2E b1:1E draw:3 draw:4 c10:1E d10:1E draw:1 draw:1 "
            "b1:3E c1:4E draw:5 e10:1E f10:1E draw:1 draw:1 e1:5S d1:1E draw:3 draw:4 g10:1E "
            "h10:1E draw:2 draw:2 f1:3N j1:4N draw:5 draw:3 start:t2a/B4 i10:2W i9:1N draw:1 "
            "draw:2 k1:3N "
            "a2:5N draw:4 draw:5 i8:1N i7:2S draw:2 draw:2 b2:4E c2:5W draw:3 draw:4 h7:2N h5:2S "
            "draw:1 draw:1 e2:3S f2:4S draw:5 draw:3 h6:1N g5:2N draw:2 draw:2 g2:3S h2:5S draw:4 "
            "draw:5 g4:2E h4:1E draw:1 draw:2 i2:4E j2:5N draw:6 draw:7 i4:1E j4:2S draw:2 draw:8 "
            "b1:7N k2:3N draw:3 j5:2N l5:2S draw:4 draw:5 a3:3W b3:6N draw:6 draw:7 k5:4E l6:2N "
            "draw:8 draw:3 c1:7S g1:1N draw:4 start:t2a roll:H >a10-b10 l2:2E c3:4S draw:5 "
            "draw:6 roll:H >c10-d10-e10-f10-g10 e3:1N g3:4W draw:7 draw:8 roll:H >h10-i10 h3:5N "
            "i3:7N draw:9 draw:10 roll:H >i9-i8-i7 b4:6N c4:6N draw:3 draw:4 roll:H "
            ">h7-h6-h5-g5-g4 k3:3E l3:4W draw:5 draw:6 roll:H >h4-i4-j4 d4:5S c5:6N draw:7 draw:8 "
            "roll:H >j5-k5-l5-l6-t2b",
        )
    ).split()
)
#: the line and route card player 1 shows when starting the trip
LINE, CARD = 2, "B4"

OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

WRONG = frozenset({"wrong_board"})
BUSY = frozenset({"move_in_progress", "wrong_board", "awaiting_move"})
TAKEBACK = frozenset({"takeback_offered"})
#: a caught start told while the streetcar stands in its terminal
CAUGHT = frozenset({"move_in_progress", "wrong_board"})
#: where the mistakes happen: before these actions (by index in MOVES)
WRONG_AT, WRONG_TILE = 0, "a1:1E"  # a straight whose rail runs off the board
TAKEBACK_AT = 4  # player 2 lays a curve, thinks again and lifts it off


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = Linie1.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the Linie 1 demo script does not end with a win")
    steps: list[DemoStep] = []
    match = Match(engine)
    for n, text in enumerate(MOVES):
        state = match.state
        action = engine.parse_action(text)
        seat = (engine.to_move(state) or 0) + 1
        # a sentence begins with the player as each language writes it
        who = Mp_("sentence start", "Player {number}", number=seat)
        before = engine.layout(state)
        after = engine.layout(engine.apply(state, action))
        if n == WRONG_AT:
            reason = engine.why_illegal(state, engine.parse_action(WRONG_TILE))
            if reason is None:
                raise IllegalMove(f"the demo's wrong tile {WRONG_TILE} is legal where it is laid")
            cell, code = WRONG_TILE.split(":")
            steps += [
                DemoStep(
                    M_(
                        "{player} lays tile {tile} on {cell} (it cannot: {reason})",
                        player=who,
                        tile=code,
                        cell=cell,
                        reason=reason,
                    ),
                    f"place {cell} {code}",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the tile off {cell} again", player=who, cell=cell),
                    f"lift {cell}",
                    n,
                ),
            ]
        if n == TAKEBACK_AT:
            cell, code = text.split(":")
            steps += [
                DemoStep(
                    M_("{player} lays tile {tile} on {cell}", player=who, tile=code, cell=cell),
                    f"place {cell} {code}",
                    n + 1,
                ),
                DemoStep(
                    M_("{player} thinks again and lifts the tile off", player=who),
                    f"lift {cell}",
                    n + 1,
                    TAKEBACK,
                ),
                DemoStep(
                    M_("the board stays in the earlier position: the tile is taken back"), "", n
                ),
            ]
        if isinstance(action, Draw | Roll):
            drawn = text.split(":")[1]
            say = (
                M_("{player} draws a tile of kind {kind}", player=who, kind=drawn)
                if isinstance(action, Draw)
                else M_("{player} rolls {face}", player=who, face=drawn)
            )
            steps.append(DemoStep(say, f"roll {text}", n + 1))
        elif isinstance(action, Start):
            terminal = engine.format_action(action)[6:].split("/")[0]
            car = f"car{LINE}"
            if engine.told(state, action):  # the cards shown: a person tells them
                steps += [
                    DemoStep(
                        M_(
                            "{player} sets the streetcar in {terminal} to start the trip",
                            player=who,
                            terminal=terminal,
                        ),
                        f"place {terminal} {car}",
                        n,
                        BUSY,
                    ),
                    DemoStep(
                        M_(
                            "{player} shows line {line} and route card {card}, and the operator "
                            "tells the start: the route is not complete, the trip is caught",
                            player=who,
                            line=LINE,
                            card=CARD,
                        ),
                        f"play {text}",
                        n + 1,
                        CAUGHT,
                    ),
                    DemoStep(
                        M_(
                            "{player} takes the streetcar off {terminal} and lays track instead",
                            player=who,
                            terminal=terminal,
                        ),
                        f"lift {terminal} {car}",
                        n + 1,
                    ),
                ]
            else:
                steps.append(
                    DemoStep(
                        M_(
                            "{player} starts the trip again, the route complete: "
                            "the streetcar in {terminal}",
                            player=who,
                            terminal=terminal,
                        ),
                        f"place {terminal} {after[terminal]}",
                        n + 1,
                    )
                )
        elif isinstance(action, Drive):
            car = f"car{state.lines[state.player] + 1}"
            here = next(s for s, piece in before.items() if car in piece.split("+"))
            path = text[1:].split("-")
            for i, site in enumerate(path):
                last = i == len(path) - 1
                steps += [
                    DemoStep(
                        M_("{player} lifts the streetcar off {site}", player=who, site=here),
                        f"lift {here} {car}",
                        n,
                        BUSY,
                    ),
                    DemoStep(
                        M_("{player} sets the streetcar on {site}", player=who, site=site),
                        f"place {site} {car}",
                        n + 1 if last else None,
                        frozenset() if last else BUSY,
                    ),
                ]
                here = site
        else:
            assert isinstance(action, Lay)
            for cell, code in (part.split(":") for part in text.split("+")):
                stop = after[cell].split("+")[1:2] == ["stop"]
                if cell in before:
                    steps.append(
                        DemoStep(
                            M_("{player} lifts the tile on {cell}", player=who, cell=cell),
                            f"lift {cell}",
                            n,
                            BUSY,
                        )
                    )
                steps.append(
                    DemoStep(
                        M_("{player} sets tile {tile} in its place", player=who, tile=code)
                        if cell in before
                        else M_(
                            "{player} lays tile {tile} on {cell}", player=who, tile=code, cell=cell
                        ),
                        f"place {cell} {code}",
                        n if stop else n + 1,
                        BUSY if stop else frozenset(),
                    )
                )
                if stop:
                    steps.append(
                        DemoStep(
                            M_(
                                "the tile on {cell} earns a stop sign: {player} puts it on",
                                cell=cell,
                                player=engine.board().players[seat - 1].name,
                            ),
                            f"place {cell} stop",
                            n + 1,
                        )
                    )
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES, chance="operator")
