"""A board on the broker: its state, its events, its commands, its discovery.

:class:`BoardOnBroker` is one of the loop's watchers: on the loop's thread,
each turn, it compares the game with the last turn's and hands the broker
client what changed (the retained state, the events), which only queues it.
Commands from the command topic are carried out by a thread of its own
through :meth:`~boardctl.controller.loop.Loop.submit`, as the control socket's
are, one at a time; a board that signs in anonymously takes none.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime
from typing import Any

from boardctl import __version__
from boardctl.fleet import discovery, topics, venue
from boardctl.fleet.client import BrokerClient, Outgoing
from boardctl.fleet.settings import Connection

log = logging.getLogger(__name__)

#: commands from the broker waiting for the loop at once; more are refused
MAX_COMMANDS = 8
#: the topic Home Assistant announces itself on (``online`` after its start)
HA_STATUS = "homeassistant/status"

Submit = Callable[[Mapping[str, Any], float], dict[str, Any]]


def _now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class BoardOnBroker:
    """Reports one board (``model``: its profile's name) to the broker of
    ``connection`` and takes its commands through ``submit``.
    ``client`` replaces the broker client (tests); ``last_winner`` is the
    winner of the last finished game, from the store."""

    def __init__(
        self,
        connection: Connection,
        model: str,
        submit: Submit,
        *,
        last_winner: Mapping[str, Any] | None = None,
        results: Sequence[Mapping[str, Any]] | None = None,
        stats: Callable[[], Mapping[str, Any]] | None = None,
        extra_subscriptions: tuple[str, ...] = (),
        on_other: Callable[[str, bytes], None] | None = None,
        on_connect: Callable[[], list[Outgoing]] | None = None,
        first_wait: float | None = None,
        clock: Callable[[], str] = _now_iso,
    ) -> None:
        self.connection = connection
        self.board_id = connection.board_id
        self.model = model
        self.submit = submit
        self.clock = clock
        self.last_winner: dict[str, Any] | None = dict(last_winner) if last_winner else None
        #: every board of the venue as the broker says them (``/venue``), once started
        self.venue: Any = None
        #: the games finished today, newest first (the retained ``results``)
        self.results: list[dict[str, Any]] = [dict(r) for r in results or ()]
        #: the statistics of the games finished here (the retained ``stats``), read
        #: when the board starts and after every game, on the commands' thread
        self._stats_of = stats
        self._stats: bytes | None = None
        self._on_other = on_other
        self._on_connect_more = on_connect
        self._lock = threading.Lock()
        self._status: Mapping[str, Any] | None = None
        self._state: bytes | None = None
        self._match: Any = None
        self._played = 0
        self._over = False
        self._players: list[str] = []
        self._waiting = 0
        self._commands = ThreadPoolExecutor(1, thread_name_prefix="mqtt-command")
        subs = [*extra_subscriptions]
        if connection.discovery:
            subs.append(HA_STATUS)
        if connection.signed_in:
            subs.append(topics.command(self.board_id))
        kwargs: dict[str, Any] = {}
        if first_wait is not None:
            kwargs["first_wait"] = first_wait
        self.client = BrokerClient(
            connection,
            subscriptions=subs,
            on_message=self._received,
            on_connect=self._connected,
            **kwargs,
        )

    def start(self) -> BoardOnBroker:
        self.client.start()
        self._count()
        return self

    def _count(self) -> None:
        """Read the statistics apart from the loop, then publish them."""
        if self._stats_of is None:
            return

        def count() -> None:
            assert self._stats_of is not None
            try:
                counted = topics.encode(self._stats_of())
            except Exception as exc:  # an unreadable database: no statistics, said once
                log.warning("the statistics could not be read: %s", exc)
                return
            with self._lock:
                self._stats = counted
            self.client.publish(
                venue.stats(self.board_id), counted, qos=1, retain=True, key="stats"
            )

        self._commands.submit(count)

    def close(self) -> None:
        self.client.close()
        self._commands.shutdown(wait=False, cancel_futures=True)

    def health(self) -> dict[str, Any]:
        return self.client.health()

    # -- the loop's watcher ----------------------------------------------------------
    def __call__(self, controller: Any, view: Any, frame: Any) -> None:
        """Each turn of the loop: the events since the last turn and, if the
        status changed, the retained state. Never waits."""
        match = controller.match
        engine = controller.engine
        if match is not self._match:
            first = self._match is None
            self._match = match
            self._players = [p.name for p in engine.board().players]
            self._played = len(match.actions)
            self._over = match.outcome().over
            if not first and not match.actions:
                self._event(
                    "game_started",
                    game=engine.name,
                    options=dict(engine.options_json()),
                    seats=[str(controller.seats[n]) for n in range(engine.players)],
                    players=self._players,
                )
        played = len(match.actions)
        if played > self._played:
            for ply in range(self._played, played):
                actor = engine.actor(match.states[ply])
                self._event(
                    "action",
                    ply=ply + 1,
                    action=controller.public_moves[ply],
                    player=actor if isinstance(actor, int) else None,
                    player_name=topics.player_name(self._players, actor)
                    if isinstance(actor, int)
                    else "chance",
                )
        elif played < self._played:
            self._event("undo", steps=self._played - played, moves=played)
        self._played = played
        over = match.outcome().over
        if over and not self._over:
            summary = match.summary()
            winner = summary.get("winner")
            self.last_winner = {
                "game": engine.name,
                "winner": winner,
                "name": topics.player_name(self._players, winner) if winner is not None else "draw",
                "scores": summary.get("scores"),
                "at": self.clock(),
            }
            result = venue.result_of(
                engine.name,
                self.last_winner["at"],
                winner,
                self._players,
                summary.get("scores"),
                played,
            )
            with self._lock:  # the client's thread reads them on every connection
                self.results.insert(0, result)
            self.client.publish(
                venue.results(self.board_id),
                self._results_payload(),
                qos=1,
                retain=True,
                key="results",
            )
            self._count()
            self._event(
                "game_over",
                game=engine.name,
                winner=winner,
                winner_name=self.last_winner["name"],
                reason=summary.get("reason", ""),
                scores=summary.get("scores"),
                moves=played,
            )
        self._over = over
        status = view.status
        if status is not self._status and status != self._status:
            self._status = status
            payload = topics.encode(
                topics.state_payload(self.board_id, status, self._players, self.last_winner)
            )
            with self._lock:
                self._state = payload
            self.client.publish(
                topics.state(self.board_id), payload, qos=1, retain=True, key="state"
            )

    def _results_payload(self) -> bytes:
        """Today's finished games (this board's local day), newest first."""
        today = date.today()
        with self._lock:  # from the loop's thread and the client's
            kept = [r for r in self.results if (venue.local_day(r.get("ended")) or today) == today][
                : venue.MAX_RESULTS
            ]
            self.results = kept
        return topics.encode(venue.results_payload(self.board_id, today, kept))

    def _event(self, kind: str, **fields: Any) -> None:
        body = topics.event(kind, self.clock(), board=self.board_id, **fields)
        self.client.publish(topics.events(self.board_id), topics.encode(body), qos=1)

    # -- the client's thread -----------------------------------------------------------
    def _discovery(self) -> list[Outgoing]:
        c = self.connection
        if not c.discovery:
            return []
        out = [
            Outgoing(t, topics.encode(p), 1, True)
            for t, p in discovery.messages(
                c.discovery_prefix, self.board_id, self.model, __version__, c.signed_in
            )
        ]
        if not c.signed_in:  # buttons a board without commands would not take: none
            out += [
                Outgoing(t, b"", 1, True)
                for t in discovery.button_topics(c.discovery_prefix, self.board_id)
            ]
        return out

    def _connected(self) -> list[Outgoing]:
        """The first messages of every connection: discovery, then the state."""
        out = self._discovery()
        with self._lock:
            state = self._state
        if state is not None:
            out.append(Outgoing(topics.state(self.board_id), state, 1, True))
        out.append(Outgoing(venue.results(self.board_id), self._results_payload(), 1, True))
        with self._lock:
            counted = self._stats
        if counted is not None:
            out.append(Outgoing(venue.stats(self.board_id), counted, 1, True))
        if self._on_connect_more is not None:
            out += self._on_connect_more()
        return out

    def _received(self, topic: str, payload: bytes) -> None:
        if topic == HA_STATUS:
            if payload.strip() == topics.ONLINE.encode():
                log.info("Home Assistant started: the board is announced again")
                for message in self._discovery():
                    self.client.publish(
                        message.topic, message.payload, qos=1, retain=True, key=message.topic
                    )
            return
        if topic == topics.command(self.board_id):
            self._command(payload)
            return
        if self._on_other is not None:
            self._on_other(topic, payload)

    def _command(self, payload: bytes) -> None:
        try:
            body = topics.parse_command(payload)
        except ValueError as exc:
            log.warning("a command on the broker refused: %s", exc)
            self._event("command", ok=False, error=str(exc))
            return
        with self._lock:
            if self._waiting >= MAX_COMMANDS:
                busy = True
            else:
                busy = False
                self._waiting += 1
        if busy:
            self._event("command", cmd=body["cmd"], ok=False, error="busy: too many commands wait")
            return
        self._commands.submit(self._carry_out, body)

    def _carry_out(self, body: dict[str, Any]) -> None:
        try:
            reply = self.submit(body, 5.0)
        finally:
            with self._lock:
                self._waiting -= 1
        fields: dict[str, Any] = {"cmd": body["cmd"], "ok": bool(reply.get("ok"))}
        if not reply.get("ok"):
            fields["error"] = str(reply.get("error"))
        log.info("command from the broker: %s", json.dumps(body)[:200])
        self._event("command", **fields)
