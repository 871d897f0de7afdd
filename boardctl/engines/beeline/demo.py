"""Beeline's scripted game for ``boardctl sim --demo beeline``: pure data.

The seed's sample game, plays 1 to 11, as hands make it on the reference
board: the two starting NODES set out, MARKS and NODES put down, each NODE
replacement a MARK lifted, the NODE put in its place and the MARK set at the
end of its line, and Red's play 6 sending Black back to his NODE on f6, the
three MARKS lifted one by one. The mistakes: a MARK set turned the wrong way
and put right, a MARK lifted for a moment and put back, and a MARK added and
taken back by holding the earlier position.
"""

from __future__ import annotations

from types import MappingProxyType

from boardctl.engines.beeline.engine import Beeline
from boardctl.engines.beeline.values import Mark, Replace
from boardctl.engines.describe import Demo, DemoStep
from boardctl.engines.match import Match
from boardctl.errors import IllegalMove
from boardctl.message import M_, Message, Mp_

MOVES = tuple(
    " ".join(
        (
            "Hc5w Hl11sw Hk10e Ac4nw Sd4nw Ak11se Sj11se Se4nw Af4ne Ai11sw Ah10w",
            "Hg5se Af5e Hh9ne NRi10 Sf6e Hf7sw NBxg5/He6nw NBxf6/Sg7ne Hh8se Ag8e",
            "NRxh9/Hi9se Sg9se Ag6w Ah5ne Sf9se He9ne Si6ne Sj7ne Sf10ne Ag11nw",
            "NRxe9/Hh11e NRxk11/Ah12se Hg12w NRxg11/Af11sw Sk8ne Al9nw Se10sw Ad9w",
            "NBm9 NBm10",
        )
    ).split()
)
OPTIONS: MappingProxyType[str, object] = MappingProxyType({})

SETUP = frozenset({"setup"})
WRONG = frozenset({"wrong_board"})
BUSY = frozenset({"move_in_progress"})
LIFTED = frozenset({"move_in_progress", "wrong_board"})
TAKEBACK = frozenset({"takeback_offered"})

#: the players as a sentence begins with them (a name is not capitalised by code:
#: each language writes its own), in seat order
WHO = (Mp_("sentence start", "Black"), Mp_("sentence start", "Red"))


def _sets(player: Message, letter: str, cell: str) -> Message:
    """A MARK of the kind ``letter`` set on ``cell``: a sentence per kind (its
    article and gender are the language's)."""
    if letter == "S":
        return M_("{player} sets a straight on {cell}", player=player, cell=cell)
    if letter == "A":
        return M_("{player} sets an angle on {cell}", player=player, cell=cell)
    return M_("{player} sets a sharp on {cell}", player=player, cell=cell)


def _lifts(player: Message, letter: str, cell: str) -> Message:
    """The MARK a NODE replaces lifted off ``cell``."""
    if letter == "S":
        return M_("{player} lifts the straight on {cell}", player=player, cell=cell)
    if letter == "A":
        return M_("{player} lifts the angle on {cell}", player=player, cell=cell)
    return M_("{player} lifts the sharp on {cell}", player=player, cell=cell)


def _moves_on(player: Message, letter: str, cell: str) -> Message:
    """The MARK a NODE replaced set at the end of its line."""
    if letter == "S":
        return M_(
            "{player} sets the straight on {cell}, the end of its line", player=player, cell=cell
        )
    if letter == "A":
        return M_(
            "{player} sets the angle on {cell}, the end of its line", player=player, cell=cell
        )
    return M_("{player} sets the sharp on {cell}, the end of its line", player=player, cell=cell)


def _node_up(player: Message, colour: int) -> Message:
    """A NODE put where the MARK was, ``colour``'s side up."""
    if colour == 0:
        return M_("{player} puts a NODE in its place, black side up", player=player)
    return M_("{player} puts a NODE in its place, red side up", player=player)


def demo() -> Demo:
    """The script, checked move by move against the rules as it is built."""
    engine = Beeline.from_options(OPTIONS)
    final = Match.from_moves(engine, MOVES)
    winner = final.outcome().winner
    if winner is None:
        raise IllegalMove("the Beeline demo script does not end with a win")
    colours = [p.name for p in engine.board().players]
    if [w.lower() for w in WHO] != colours:
        raise IllegalMove(f"the Beeline demo names the players {WHO}, the game {colours}")
    start = engine.layout(engine.initial())
    steps = [
        DemoStep(
            M_("{player} sets out their starting NODE", player=WHO[0]),
            f"place b4 {start['b4']}",
            0,
            SETUP,
        ),
        DemoStep(
            M_("{player} sets out their starting NODE", player=WHO[1]),
            f"place l10 {start['l10']}",
            0,
        ),
    ]
    match = Match(engine)
    for n, text in enumerate(MOVES):
        state = match.state
        who = WHO[engine.to_move(state) or 0]
        action = engine.parse_action(text)
        before = engine.layout(state)
        after = engine.layout(engine.apply(state, action))
        if n == 3:
            # Black sets his angle on c4 turned the wrong way, then turns it
            wrong = after["c4"].replace("-nw", "-w")
            steps += [
                DemoStep(
                    M_(
                        "{player} sets an angle on {cell} leaving west (it cannot: wrong way)",
                        player=who,
                        cell="c4",
                    ),
                    f"place c4 {wrong}",
                    n,
                    WRONG,
                ),
                DemoStep(
                    M_("{player} takes the angle off {cell} again", player=who, cell="c4"),
                    "lift c4",
                    n,
                ),
            ]
        if n == 9:
            steps += [
                DemoStep(
                    M_("{player} lifts the straight on {cell} for a moment", player=who, cell="e4"),
                    "lift e4",
                    n,
                    LIFTED,
                ),
                DemoStep(
                    M_("{player} puts the straight back", player=who),
                    f"place e4 {before['e4']}",
                    n,
                ),
            ]
        if n == 12:
            reason = engine.why_illegal(state, engine.parse_action("Af5e"))
            if reason is not None:
                raise IllegalMove(f"the demo's Af5e is not legal where it is played: {reason}")
            steps += [
                DemoStep(
                    M_("{player} adds an angle on {cell}", player=who, cell="f5"),
                    f"place f5 {after['f5']}",
                    n + 1,
                ),
                DemoStep(
                    M_("{player} thinks again and lifts the angle off", player=who),
                    "lift f5",
                    n + 1,
                    TAKEBACK,
                ),
                DemoStep(
                    M_("the board stays in the earlier position: the angle is taken back"), "", n
                ),
            ]
        gone = sorted(s for s in before if s not in after)
        if isinstance(action, Replace):
            letter = action.kind.letter
            steps += [
                DemoStep(_lifts(who, letter, str(action.cell)), f"lift {action.cell}", n, BUSY),
                DemoStep(
                    _node_up(who, action.colour),
                    f"place {action.cell} {after[action.cell]}",
                    n,
                    BUSY,
                ),
                DemoStep(
                    _moves_on(who, letter, str(action.to)),
                    f"place {action.to} {after[action.to]}",
                    n + 1 if not gone else n,
                    BUSY if gone else frozenset(),
                ),
            ]
        elif isinstance(action, Mark):
            steps.append(
                DemoStep(
                    _sets(who, action.kind.letter, str(action.cell)),
                    f"place {action.cell} {after[action.cell]}",
                    n + 1 if not gone else n,
                    BUSY if gone else frozenset(),
                )
            )
        else:
            steps.append(
                DemoStep(
                    M_("{player} puts a NODE on {cell}", player=who, cell=str(action.cell)),
                    f"place {action.cell} {after[action.cell]}",
                    n + 1,
                )
            )
        for i, cell in enumerate(gone):
            last = i == len(gone) - 1
            steps.append(
                DemoStep(
                    M_(
                        "{player}'s line is sent back: off comes the piece on {cell}",
                        player=WHO[colours.index(before[cell].split("-")[0])],
                        cell=cell,
                    ),
                    f"lift {cell}",
                    n + 1 if last else n,
                    frozenset() if last else BUSY,
                )
            )
        match.play(action)
    return Demo(OPTIONS, tuple(steps), winner, MOVES)
