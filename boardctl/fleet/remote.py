"""Remote play: a seat of this board's game played at another board.

Two boards play one game through the broker. Each keeps the whole record in
its own store, and each publishes it, retained, on ``boardctl/<its id>/remote/<the
other's id>`` whenever it changes and on every connection::

    {"v": 1, "type": "game", "from": "table-1", "to": "grandma", "game": 8151...,
     "name": "shiftago", "options": {...}, "seats": ["hands", "remote:grandma"],
     "seq": 3, "moves": ["W1", "E1", "W2"], "ack": 2, "over": false, "left": false}

An action's sequence number is its place in the record (1 the first); ``seq``
is the last one this board holds and ``ack`` the last of the other's it has
seen, so a message is the acknowledgement of the other's too. What a board
holds it has written to SQLite before it says so: a dropped connection, a
broker restarted (its retained messages lost) or a board's power cut loses
nothing, as each board says its whole record again when it is back; a message
said twice repeats nothing, as the other's actions are taken by their place.

The other board's actions come to the controller as the computer's do: the
:class:`RemoteLink` is the :class:`~boardctl.controller.opponent.Thinker` of the
remote seats. The controller asks it for the remote seat's turn from a place
in the record; once the other's record holds that turn, the link answers with
:class:`~boardctl.controller.opponent.RemoteMoved`, and the turn is lit on this
board for local hands to make, and checked, exactly as the computer's move.

An invitation is the first such message of a game that names this board in
a seat; ``boardctl accept <board>`` (the operator page's "Accept") or a new
game with the matching seats begins the same game here. Games with secrets
or chance are not played remotely (secrets stay with their owners' boards).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from boardctl.controller.opponent import RemoteFailed, RemoteMoved, Think
from boardctl.fleet import topics
from boardctl.fleet.client import Outgoing
from boardctl.seats import BOARD_ID, HANDS, MAX_SEED, REMOTE, Seat, Seats

log = logging.getLogger(__name__)

VERSION = 1
#: the longest remote-play message taken, in bytes
MAX_MESSAGE = 64 * 1024
#: seconds after which a record the other board has not acknowledged is said again
RESEND = 10.0
#: the most other boards whose latest message is kept (the oldest is forgotten
#: first, never the board this one plays with)
MAX_PEERS = 64

Emit = Callable[[RemoteMoved | RemoteFailed], None]
Publish = Callable[[str, bytes], None]


def remote_topic(sender: str, receiver: str) -> str:
    return topics.topic(sender, f"remote/{receiver}")


@dataclass(frozen=True, slots=True)
class Shared:
    """The game under way here, as the other board must read it."""

    game: int
    peer: str
    name: str
    options: Mapping[str, Any]
    seats: tuple[str, ...]
    moves: tuple[str, ...]
    over: bool


def mirrored(theirs: list[str], me: str, them: str) -> list[str] | None:
    """The seats of the other board's game as this board plays them: their
    hands are ``remote:<them>`` here, their ``remote:<me>`` hands here; None
    when the game does not seat this board (or seats anyone else)."""
    out: list[str] = []
    for word in theirs:
        if word == HANDS:
            out.append(f"{REMOTE}:{them}")
        elif word == f"{REMOTE}:{me}":
            out.append(HANDS)
        else:
            return None
    return out if HANDS in out else None


def parse(payload: bytes) -> dict[str, Any] | None:
    """A remote-play message, or None for one that is not (logged)."""
    if not payload:
        return None  # a retained message cleared
    if len(payload) > MAX_MESSAGE:
        log.warning("a remote-play message of %d bytes ignored", len(payload))
        return None
    try:
        body = json.loads(payload)
    except (UnicodeDecodeError, ValueError):
        log.warning("a remote-play message that is not JSON ignored")
        return None
    ok = (
        isinstance(body, dict)
        and body.get("v") == VERSION
        and body.get("type") == "game"
        and _count(body.get("game"))
        and body["game"] <= MAX_SEED
        and _count(body.get("seq"))
        and _count(body.get("ack"))
        and isinstance(body.get("left"), bool)
        and isinstance(body.get("over"), bool)
        and isinstance(body.get("from"), str)
        and isinstance(body.get("name"), str)
        and isinstance(body.get("options"), dict)
        and isinstance(body.get("seats"), list)
        and all(isinstance(s, str) for s in body["seats"])
        and isinstance(body.get("moves"), list)
        and all(isinstance(m, str) for m in body["moves"])
    )
    if not ok:
        log.warning("a remote-play message that does not read as one ignored")
        return None
    return body


def _count(value: object) -> bool:
    """A whole number from 0 (not a bool, which JSON's true would be in Python)."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class RemoteLink:
    """Remote play of the board ``board_id``: messages go out by ``publish``
    (the broker client's, which never waits); ``clock`` is monotonic seconds."""

    def __init__(
        self,
        board_id: str,
        publish: Publish | None = None,
        *,
        emit: Emit | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board_id = board_id
        self._publish = publish
        self._emit = emit
        self.clock = clock
        self._lock = threading.Lock()
        #: the latest message of each other board addressed to this one
        self._theirs: dict[str, dict[str, Any]] = {}
        self._shared: Shared | None = None
        self._said: dict[str, bytes] = {}
        self._said_at = 0.0
        self._pending: Think | None = None
        self._answered: int | None = None
        self._match: Any = None
        self._played = -1
        self._seats: Any = None
        #: the invitation declined here of each other board: its game's number
        self._declined: dict[str, int] = {}

    @property
    def subscription(self) -> str:
        return topics.topic("+", f"remote/{self.board_id}")

    def attach(self, emit: Emit, publish: Publish | None = None) -> None:
        self._emit = emit
        if publish is not None:
            self._publish = publish

    # -- the Thinker of the remote seats (the loop's thread) ---------------------------
    def ask(self, request: Think) -> None:
        with self._lock:
            self._pending = request
            self._answered = None
        self._deliver()

    def cancel(self) -> None:
        with self._lock:
            self._pending = None

    # -- the loop's watcher --------------------------------------------------------------
    def __call__(self, controller: Any, view: Any, frame: Any) -> None:
        """Each turn: say the record again when it changed, or when the other
        board has not acknowledged it for :data:`RESEND` seconds."""
        match = controller.match
        seats = controller.seats
        if match is self._match and len(match.actions) == self._played and seats is self._seats:
            self._resend_if_unacknowledged()
            return
        self._match, self._played, self._seats = match, len(match.actions), seats
        engine = controller.engine
        remote = [s for s in seats if s.kind == REMOTE]
        shared = None
        if remote and remote[0].seed is not None:
            shared = Shared(
                remote[0].seed,
                remote[0].board,
                engine.name,
                dict(engine.options_json()),
                tuple(str(seats[n]) for n in range(engine.players)),
                tuple(engine.format_action(a) for a in match.actions),
                match.outcome().over,
            )
        with self._lock:
            before = self._shared
            self._shared = shared
        if before is not None and (shared is None or shared.game != before.game):
            self._say(before, left=True)  # a new game here: the other board is told
        if shared is not None:
            self._say(shared)
        self._deliver()

    def _resend_if_unacknowledged(self) -> None:
        shared = self._shared
        if shared is None or self.clock() - self._said_at < RESEND:
            return
        theirs = self._theirs.get(shared.peer)
        acked = theirs.get("ack", 0) if theirs and theirs.get("game") == shared.game else 0
        if acked < len(shared.moves) or theirs is None:
            self._say(shared)

    def _message(self, shared: Shared, left: bool = False) -> dict[str, Any]:
        with self._lock:
            theirs = self._theirs.get(shared.peer)
        ack = 0
        if theirs is not None and theirs.get("game") == shared.game:
            ack = len(theirs["moves"])
        return {
            "v": VERSION,
            "type": "game",
            "from": self.board_id,
            "to": shared.peer,
            "game": shared.game,
            "name": shared.name,
            "options": dict(shared.options),
            "seats": list(shared.seats),
            "seq": len(shared.moves),
            "moves": list(shared.moves),
            "ack": ack,
            "over": shared.over,
            "left": left,
        }

    def _say(self, shared: Shared, left: bool = False) -> None:
        payload = topics.encode(self._message(shared, left))
        topic = remote_topic(self.board_id, shared.peer)
        with self._lock:
            self._said[topic] = payload
            self._said_at = self.clock()
        if self._publish is not None:
            self._publish(topic, payload)

    # -- the broker's side (the client's thread) -------------------------------------------
    def on_connect(self) -> list[Outgoing]:
        """What this board said last, said again on every connection (the
        broker may have lost its retained messages)."""
        shared = self._shared
        if shared is not None:
            self._said[remote_topic(self.board_id, shared.peer)] = topics.encode(
                self._message(shared)
            )
        with self._lock:
            return [Outgoing(t, p, 1, True) for t, p in self._said.items()]

    def received(self, topic: str, payload: bytes) -> None:
        parts = topic.split("/")
        if len(parts) != 4 or parts[2] != "remote" or parts[3] != self.board_id:
            return
        sender = parts[1]
        if sender == self.board_id or not BOARD_ID.fullmatch(sender):
            return  # its own (said back by a broker that a bridge loops), or no board's
        body = parse(payload)
        if body is None:
            return
        if body["from"] != sender:
            log.warning(
                "a remote-play message on %s says it is from %s: ignored", topic, body["from"]
            )
            return
        with self._lock:
            shared = self._shared
            before = self._theirs.pop(sender, None)
            self._theirs[sender] = body  # the latest said last: the oldest first to go
            partner = shared.peer if shared is not None else None
            while len(self._theirs) > MAX_PEERS:
                oldest = next(b for b in self._theirs if b != partner)
                del self._theirs[oldest]
                self._declined.pop(oldest, None)
        if before is None or before.get("game") != body["game"]:
            if shared is not None and shared.peer == sender and shared.game == body["game"]:
                log.info("%s plays game %d with this board", sender, body["game"])
            elif not body.get("left") and not body.get("over"):
                log.info("%s invites this board to %s", sender, body["name"])
        self._deliver()
        lacks = (
            shared is not None
            and shared.peer == sender
            and shared.game == body["game"]
            and body.get("ack", 0) < len(shared.moves)
            and not body.get("left")
        )
        if lacks and shared is not None:
            self._say(shared)  # it lacks what this board holds: said again

    # -- answering the controller ----------------------------------------------------------
    def _deliver(self) -> None:
        """Answer the request under way once the other board's record holds its turn."""
        with self._lock:
            request, shared = self._pending, self._shared
            if request is None or shared is None or self._answered == request.id:
                return
            theirs = self._theirs.get(shared.peer)
            if theirs is None or theirs.get("game") != shared.game:
                return
            moves: list[str] = theirs["moves"]
            mine = shared.moves
        ply = request.ply
        known = min(ply, len(mine), len(moves))
        answer: RemoteMoved | RemoteFailed | None = None
        if theirs.get("left"):
            answer = RemoteFailed(
                request.id, f"{shared.peer} has left it: declined, or began another game"
            )
        elif moves[:known] != list(mine[:known]):
            at = next(n for n in range(known) if moves[n] != mine[n])
            answer = RemoteFailed(
                request.id,
                f"{shared.peer}'s record differs from this board's at move {at + 1} "
                f"({moves[at]} there, {mine[at]} here)",
            )
        elif len(moves) > ply:
            answer = RemoteMoved(request.id, tuple(self._turn(request, moves[ply:])))
        if answer is None:
            return
        with self._lock:
            if self._pending is not request or self._answered == request.id:
                return
            self._answered = request.id
        if self._emit is not None:
            self._emit(answer)

    @staticmethod
    def _turn(request: Think, moves: list[str]) -> list[str]:
        """The moves of the remote seat's turn from the request's position: as
        long as that seat acts (one that does not read stops the turn there,
        for the controller to refuse with its reason)."""
        engine, state = request.engine, request.state
        out: list[str] = []
        for text in moves:
            if engine.actor(state) != request.seat:
                break
            out.append(text)
            try:
                state = engine.apply(state, engine.parse_action(text))
            except ValueError:
                break
        return out

    # -- what the board says, and its commands ----------------------------------------------
    def invitations(self) -> dict[str, dict[str, Any]]:
        """The other boards' games that seat this board and are not under way here."""
        with self._lock:
            shared = self._shared
            out = {}
            for sender, body in self._theirs.items():
                if body.get("left") or body.get("over"):
                    continue
                if self._declined.get(sender) == body["game"]:
                    continue
                if shared is not None and shared.peer == sender and shared.game == body["game"]:
                    continue
                seats = mirrored(body["seats"], self.board_id, sender)
                if seats is None:
                    continue
                out[sender] = {
                    "board": sender,
                    "game": body["name"],
                    "options": body["options"],
                    "seats": seats,
                    "number": body["game"],
                    "moves": len(body["moves"]),
                }
        return out

    def report(self) -> dict[str, Any]:
        """The remote game under way and the invitations, for the status and the pages."""
        out: dict[str, Any] = {"invitations": list(self.invitations().values())}
        with self._lock:
            shared = self._shared
            theirs = self._theirs.get(shared.peer) if shared is not None else None
        if shared is not None:
            joined = theirs is not None and theirs.get("game") == shared.game
            theirs = theirs if joined else None
            out["game"] = {
                "board": shared.peer,
                "number": shared.game,
                "seq": len(shared.moves),
                "joined": theirs is not None and not theirs.get("left"),
                "left": theirs is not None and bool(theirs.get("left")),
                "acknowledged": theirs.get("ack", 0) if theirs is not None else 0,
                "theirs": len(theirs["moves"]) if theirs is not None else 0,
            }
        return out

    def seats_for(self, invitation: Mapping[str, Any]) -> Seats:
        """The seats that accept ``invitation``, the game's number with them."""
        return Seats(
            tuple(
                Seat(REMOTE, 0, invitation["number"], invitation["board"])
                if word != HANDS
                else Seat()
                for word in invitation["seats"]
            )
        )

    def adopt(
        self, game: str, options: Mapping[str, Any] | None, seats: Seats
    ) -> tuple[Mapping[str, Any] | None, Seats]:
        """A new game's options and seats: those of an invitation when the
        seats asked for are its mirror (and the options, if given, its own).
        ValueError for a seat that names this very board."""
        if any(s.remote and s.board == self.board_id for s in seats):
            raise ValueError(
                f"seats {str(seats)!r}: {self.board_id} is this board; a remote seat names "
                "another board on the broker, and this board's own seats are hands"
            )
        words = [str(s) for s in seats]
        for invitation in self.invitations().values():
            want = list(invitation["seats"])
            while want and want[-1] == HANDS:
                want.pop()
            if invitation["game"] != game or words != want:
                continue
            if options is not None and dict(options) != dict(invitation["options"]):
                continue
            return invitation["options"], self.seats_for(invitation)
        return options, seats

    def accept(self, board: str | None) -> tuple[str, Mapping[str, Any], Seats]:
        """The game, options and seats that accept the invitation of ``board``
        (the only one when None); LookupError saying which there are."""
        found = self.invitations()
        if board is None and len(found) == 1:
            board = next(iter(found))
        if board is None or board not in found:
            listed = ", ".join(sorted(found)) or "none"
            raise LookupError(
                f"no invitation from {board!r}; the boards inviting this one: {listed}"
                if board is not None
                else f"name the board whose invitation to accept; the boards inviting this one: "
                f"{listed}"
            )
        invitation = found[board]
        return invitation["game"], invitation["options"], self.seats_for(invitation)

    def decline(self, board: str) -> None:
        """Tell ``board`` this one does not play its game."""
        invitation = self.invitations().get(board)
        if invitation is None:
            raise LookupError(f"no invitation from {board!r}")
        shared = Shared(
            invitation["number"],
            board,
            invitation["game"],
            invitation["options"],
            tuple(invitation["seats"]),
            (),
            False,
        )
        with self._lock:
            self._declined[board] = invitation["number"]
        self._say(shared, left=True)
