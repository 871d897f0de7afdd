"""The simulator in a terminal: a person typing what their hands do, or the
scripted demo playing itself.

The screen (:func:`boardctl.sim.screen.compose`) fills a fixed number of lines
at the top of the terminal; the prompt sits below it. A refresher thread
redraws the screen in place whenever the LEDs change (a move accepted, a
mistake shown after the grace time, a takeback), or, checked once a second,
the game does (a new game asked for from another terminal), without touching
the line being typed.
"""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import sys
import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TextIO

from boardctl import i18n
from boardctl.controller.view import phase_words
from boardctl.errors import BoardctlError
from boardctl.message import M_, Mn_, said
from boardctl.sim.board import HAND_VERBS, spec_of
from boardctl.sim.demo import Script
from boardctl.sim.screen import Layout, compose, game_spec, player_label
from boardctl.sim.session import SimError, Simulation

_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

HELP = M_(
    "type what the hands do (insert W3, place d4 PIECE, lift d4, move d4 e4, remove b1 c1) "
    "or new/undo/another/play/roll/choose/press/status/quit; "
    "new seats=hands,computer:2 plays the computer"
)

#: what an operator tells the controller: the typed word, the request and its key
TOLD = {
    "play": ("play", "action"),
    "roll": ("chance", "action"),
    "choose": ("choose", "option"),
    "press": ("press", "button"),
}

#: redraws at most this often while LEDs blink
REDRAW_PERIOD = 0.1


def plain(text: str) -> str:
    """``text`` without colour escapes (for output that is not a terminal)."""
    return _ESCAPE.sub("", text)


def _option_value(text: str) -> Any:
    from boardctl.textfiles import parse_json

    try:
        return parse_json(text)  # bounded: thousands of [ are text, not a crash
    except ValueError:
        return text


def _game_of(status: dict[str, Any]) -> tuple[Any, ...]:
    """What of the status the screen shows that may change without the LEDs."""
    options = status.get("options") or {}
    return (
        status.get("game"),
        json.dumps(options, sort_keys=True, default=str),
        tuple(status.get("moves", [])),
        status.get("phase"),
    )


def parse_new(args: Sequence[str]) -> tuple[str | None, dict[str, Any]]:
    """``new [GAME] [key=value ...]`` -> the game (or None) and the options
    (``seats=hands,computer:2`` among them, as text)."""
    game: str | None = None
    options: dict[str, Any] = {}
    for word in args:
        key, sep, value = word.partition("=")
        if sep:
            options[key] = value if key == "seats" else _option_value(value)
        elif game is None:
            game = word.lower()
        else:
            raise SimError(
                M_("new {words}: write new [GAME] [key=value ...]", words=" ".join(args))
            )
    return game, options


class Console:
    """An interactive session on ``make()``'s simulation; ``make(game)`` builds
    a new one when a person asks for another game."""

    def __init__(
        self,
        make: Callable[[str | None, dict[str, Any]], Simulation],
        *,
        out: TextIO | None = None,
        height: int = 0,
    ) -> None:
        self._make = make
        self.out = out or sys.stdout
        self.sim = make(None, {})
        #: the game asked for when the simulation was made (None: the first one)
        self._game: str | None = None
        self.note: str = HELP
        self._lock = threading.RLock()
        self._running = True
        self._height = height
        #: what the screen last showed of the game (see :func:`_game_of`)
        self._shown: tuple[Any, ...] | None = None
        self.layout = self._layout()

    def _layout(self) -> Layout:
        """The screen's layout in the terminal as it is now: no line wider than
        it, and the prompt's line below the screen always on it."""
        columns, rows = shutil.get_terminal_size()
        height = self._height
        if not height:
            try:
                status = self.sim.status()
            except BoardctlError:
                status = {}
            wide = Layout(self.sim.profile, width=columns)
            # room for the longest controller message
            height = len(compose(status, None, wide).splitlines()) + 3
        return Layout(
            self.sim.profile,
            height=max(1, min(height, rows - 1)),
            width=columns,
            note=self.sim.palette.note,
        )

    # -- drawing -------------------------------------------------------------
    def screen(self) -> str:
        """The screen in the board's language ([board] language)."""
        code = self.sim.config.board.language
        try:
            status = self.sim.status(code)
        except BoardctlError as exc:
            status = {"phase": f"unreachable ({exc})"}
        self._shown = _game_of(status)
        with i18n.language(code):
            return compose(status, self.sim.frame, self.layout, self.note)

    def draw(self, full: bool = False) -> None:
        """Redraw the screen above the prompt, keeping the cursor where it is."""
        text = self.screen()
        # each line in its own row, written from its first column: nothing
        # wraps or scrolls, and the prompt's row below is never touched
        rows = "".join(
            f"\x1b[{row};1H\x1b[2K{line}" for row, line in enumerate(text.splitlines(), 1)
        )
        with self._lock:
            if full:
                self.out.write("\x1b[2J" + rows)
            else:
                self.out.write("\x1b7" + rows + "\x1b8")
            self.out.flush()

    def prompt(self) -> None:
        layout = self._layout()
        if layout != self.layout:  # the terminal was resized
            self.layout = layout
            self.draw(full=True)
        with self._lock:
            self.out.write(f"\x1b[{self.layout.height + 1};1H\x1b[Jsim> ")
            self.out.flush()

    def _refresh(self) -> None:
        seen = -1
        while self._running:
            sim = self.sim
            news = sim.wait_news(seen, 1.0)
            if not self._running:
                return
            if news == seen:
                # the LEDs stayed as they were, but a command from another
                # terminal (boardctl new) may have changed the game all the same
                with contextlib.suppress(BoardctlError, OSError):
                    if _game_of(sim.status()) != self._shown:
                        self.draw()
                continue
            seen = news
            with contextlib.suppress(BoardctlError, OSError):
                self.draw()
            threading.Event().wait(REDRAW_PERIOD)

    # -- the loop ---------------------------------------------------------------
    def run(self, read: Callable[[], str] = input) -> int:
        self.draw(full=True)
        refresher = threading.Thread(target=self._refresh, name="sim-screen", daemon=True)
        refresher.start()
        try:
            while True:
                self.prompt()
                try:
                    line = read()
                except (EOFError, OSError):  # Ctrl-D, or the terminal is gone
                    break
                if not self.handle(line):
                    break
                self.draw()
        except KeyboardInterrupt:
            pass
        finally:
            self._running = False
            # the terminal may be gone (closed): the simulation is closed all the same
            with self._lock, contextlib.suppress(OSError):
                self.out.write(f"\x1b[{self.layout.height + 1};1H\x1b[J")
                self.out.flush()
            self.sim.close()
        return 0

    def handle(self, line: str) -> bool:
        """Carry out one typed line; False to quit. Errors become the note."""
        words = line.split()
        if not words:
            self.note = HELP
            return True
        verb = words[0].lower()
        try:
            if verb in ("quit", "exit", "q"):
                return False
            if verb in HAND_VERBS:
                # a part may be named in the board's language (lift d4 Scheibe)
                with i18n.language(self.sim.config.board.language):
                    self.sim.hands(line.strip())
                self.sim.settle()
                self.note = M_("{command}: done", command=line.strip())
            elif verb == "new":
                self._new(words[1:])
            elif verb == "undo":
                reply = self._ask({"cmd": "undo"})
                if not reply.get("ok"):
                    raise SimError(str(reply.get("error")))
                self.note = M_(
                    "took back {move}: put the board back as it was", move=reply["undone"]
                )
            elif verb == "another":
                reply = self._ask({"cmd": "another"})
                if not reply.get("ok"):
                    raise SimError(str(reply.get("error")))
                self.note = M_(
                    "the computer thinks again, instead of {move}", move=reply["instead_of"]
                )
            elif verb in TOLD and len(words) > 1:
                what = line.strip().split(None, 1)[1]
                cmd, key = TOLD[verb]
                reply = self._ask({"cmd": cmd, key: what})
                if not reply.get("ok"):
                    raise SimError(str(reply.get("error")))
                self.note = f"{verb}: {reply.get('played') or reply.get('chosen') or what}"
            elif verb == "status":
                status = self.sim.status(self.sim.config.board.language)
                who = player_label(game_spec(status), status.get("to_move"))
                self.note = M_(
                    "{phase}: {moves} moves, {player} to {task}, {status}",
                    phase=phase_words(status.get("phase")),
                    moves=len(status.get("moves", [])),
                    player=who,
                    task=status.get("task", "act"),
                    status=status.get("status"),
                )
            elif verb in ("help", "?"):
                self.note = HELP
            else:
                self.note = M_("unknown command {command}: {help}", command=repr(verb), help=HELP)
        except (BoardctlError, ValueError, KeyError) as exc:
            message = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else said(exc)
            # the refusal in the board's language where it was made with its words
            self.note = M_("{command}: {error}", command=line.strip(), error=message)
        return True

    def _ask(self, body: dict[str, Any]) -> dict[str, Any]:
        """The daemon's answer to ``body``, its refusal in the board's language."""
        return self.sim.request({**body, "language": self.sim.config.board.language})

    def _new(self, args: Sequence[str]) -> None:
        game, options = parse_new(args)
        status = self.sim.status()
        if game is not None and game != status.get("game"):
            if self.sim.temporary:
                sim = self._make(game, options)  # the old game plays on if this fails
                old, self.sim = self.sim, sim
                old.close()
            else:
                # one daemon at a time owns the kept state directory and its socket
                self.sim.close()
                try:
                    sim = self._make(game, options)
                except BoardctlError:
                    self.sim = self._make(self._game, {})  # resumed from the store
                    raise
                self.sim = sim
            self._game = game
            self.layout = self._layout()
            self.draw(full=True)
            self.note = M_("a new game of {game} on {board}", game=game, board=sim.profile.name)
            return
        body: dict[str, Any] = {"cmd": "new", "game": game}
        seats = options.pop("seats", None)
        if seats is not None:
            body["seats"] = seats
        if options:
            body["options"] = options
        reply = self._ask(body)
        if not reply.get("ok"):
            raise SimError(str(reply.get("error")))
        self.sim.clear_board()
        self.sim.settle()
        self.note = M_(
            "a new game of {game}: the hands cleared the board", game=str(reply.get("game"))
        )


def _ready(status: Mapping[str, Any]) -> bool:
    """The empty board is ready for a demo's first step: a move is awaited,
    or the game asks only for the pieces it starts with (Beeline's NODES)."""
    if status.get("phase") == "awaiting_move":
        return True
    return (
        status.get("phase") == "setup"
        and bool(status.get("restore"))
        and not status.get("offending")
    )


def run_demo(
    sim: Simulation,
    script: Script,
    *,
    delay: float = 0.3,
    out: TextIO | None = None,
    timeout: float = 15.0,
) -> int:
    """Play ``script`` on ``sim``, narrating each step in the board's language
    ([board] language); 0 when it ends as scripted."""
    with i18n.language(sim.config.board.language):
        return _narrate(sim, script, delay, out or sys.stdout, timeout)


def _narrate(sim: Simulation, script: Script, delay: float, out: TextIO, timeout: float) -> int:
    code = sim.config.board.language
    tty = out.isatty()
    width = shutil.get_terminal_size().columns if tty else 0
    layout = Layout(sim.profile, title="boardctl sim --demo", width=width, note=sim.palette.note)
    pause = threading.Event()

    def show(note: str) -> None:
        if tty:
            status = sim.status(code)
            out.write("\x1b[2J\x1b[H" + compose(status, sim.frame, layout, note) + "\n")
        else:
            out.write(i18n.translate(note) + "\n")
        out.flush()

    status = sim.wait_status(_ready, timeout)
    if status.get("phase") == "setup":
        show(
            M_(
                "a game of {game}: the board is empty; the game starts with pieces",
                game=script.game,
            )
        )
    else:
        show(M_("a game of {game}: the board is empty and ready", game=script.game))
    total = len(script.steps)
    for number, step in enumerate(script.steps, start=1):
        verb, _, what = step.command.partition(" ")
        if verb in TOLD:
            cmd, key = TOLD[verb]
            reply = sim.request({"cmd": cmd, key: what.strip()})
            if not reply.get("ok"):
                raise SimError(f"[{number}/{total}] {step.command}: {reply.get('error')}")
        elif step.command:
            sim.hands(step.command)
        sim.wait_status(step.expect.met, timeout)
        said = i18n.translate(step.say)
        show(f"[{number}/{total}] {said}" + (f"   > {step.command}" if step.command else ""))
        # the next hand waits until this one's action is final (a hand going
        # on at once amends it, as a disc slid on to the next cell)
        wait = max(delay, sim.amend_window if step.command and verb not in TOLD else 0.0)
        if wait:
            pause.wait(wait)
    status = sim.status(code)
    winner = player_label(spec_of(script.game, script.options), script.winner)
    if status.get("phase") != "game_over" or status.get("winner") != script.winner:
        raise SimError(
            M_(
                "the demo should end with a win for {player}, but the controller says "
                "{phase} ({reason})",
                player=winner,
                phase=str(status.get("phase")),
                reason=str(status.get("reason")),
            )
        )
    final = compose(status, sim.frame, layout, "")
    out.write((final if tty else plain(final)) + "\n")
    moves = len(status.get("moves", []))
    out.write(
        i18n.translate(
            Mn_(
                "result: {player} wins: {reason} after {n} move",
                "result: {player} wins: {reason} after {n} moves",
                moves,
                player=winner,
                reason=str(status.get("reason")),
            )
        )
        + "\n"
    )
    out.flush()
    return 0
