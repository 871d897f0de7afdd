"""The broker client: a thread of its own with its own asyncio loop.

The daemon's loop (and the LEDs it drives) never waits for the broker. It
hands messages to :meth:`BrokerClient.publish`, which only puts them in a
bounded outbox and wakes the client's thread; a keyed message (the retained
state) replaces the one of its key still waiting, an event waits in line and
the oldest is dropped (and counted) when the line is full. The client's thread
connects with the board's last will (``offline``, retained), says ``online``,
subscribes, and then sends the outbox and hands what it receives to
``on_message``. When the broker is down, slow or refuses the board, it tries
again after a wait that doubles from :data:`FIRST_WAIT` up to :data:`LAST_WAIT`
(with a little jitter, so that a venue's boards do not all knock at once), and
:meth:`health` says what happened, for ``boardctl status`` and the pages.

aiomqtt (on paho-mqtt 2) is the client: pure Python on every Pi, asyncio like
the web server, with no thread of paho's own to guard.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import random
import socket
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import aiomqtt

from boardctl.fleet import topics
from boardctl.fleet.settings import Connection

log = logging.getLogger(__name__)

#: the first wait before trying a broker again, and the longest, in seconds
FIRST_WAIT = 1.0
LAST_WAIT = 60.0
#: events waiting while the broker is not reached; past it the oldest go
MAX_OUTBOX = 256
#: seconds between the keepalive pings that tell a lost broker
KEEPALIVE = 15
#: seconds a connection, publish or subscribe may take before the broker counts
#: as lost (a broker that is slow or stalled)
TIMEOUT = 10.0
#: messages received and not yet handled; past it the broker waits (TCP holds it back)
MAX_INCOMING = 64
#: the longest message taken from the broker, in bytes; a longer one is dropped
MAX_PAYLOAD = 64 * 1024


@dataclass(frozen=True, slots=True)
class Outgoing:
    topic: str
    payload: bytes
    qos: int = 0
    retain: bool = False


def waits(first: float = FIRST_WAIT, last: float = LAST_WAIT) -> Iterator[float]:
    """The waits between tries, before jitter: doubling from ``first`` to ``last``."""
    wait = first
    while True:
        yield wait
        wait = min(last, wait * 2)


def jittered(wait: float, rng: random.Random) -> float:
    """``wait`` less up to a quarter of it, drawn by ``rng``."""
    return wait * (1 - 0.25 * rng.random())


def refusal(exc: BaseException) -> str:
    """What a failed connection means, in words an operator can act on."""
    text = str(exc)
    lowered = text.lower()
    if "not authori" in lowered or "bad user" in lowered or "password" in lowered:
        return (
            f"the broker refused the board's sign-in ({text}): check [mqtt] user and "
            "password_file, and the broker's password file"
        )
    if "refused" in lowered:
        return f"the broker refused the connection ({text}): is it running, on that port?"
    if isinstance(exc, ssl.SSLError) or "certificate" in lowered:
        return f"TLS failed ({text}): check [mqtt] ca_file and the broker's certificate"
    if "timed out" in lowered or isinstance(exc, TimeoutError):
        return (
            f"the broker did not answer in time ({text or 'timed out'}): is it overloaded, "
            "or is something else listening on that port?"
        )
    if "disconnected" in lowered or "not currently connected" in lowered or "closed" in lowered:
        return f"the connection to the broker was lost ({text})"
    if "name or service not known" in lowered or "nodename" in lowered:
        return f"the broker's host name is not known ({text})"
    return text or type(exc).__name__


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _now_iso() -> str:
    return _iso(time.time())


class BrokerClient:
    """Keeps a board connected to its broker (``connection``) on a thread of
    its own. ``subscriptions`` are subscribed on every connection;
    ``on_message(topic, payload)`` is called on the client's thread and must
    return at once; ``on_connect()`` (on the client's thread) gives the
    messages to send first on every connection (discovery, the state). A
    context manager; :meth:`close` says ``offline`` before it leaves."""

    def __init__(
        self,
        connection: Connection,
        *,
        subscriptions: Iterable[str] = (),
        on_message: Callable[[str, bytes], None] | None = None,
        on_connect: Callable[[], list[Outgoing]] | None = None,
        first_wait: float = FIRST_WAIT,
        last_wait: float = LAST_WAIT,
        keepalive: int = KEEPALIVE,
        timeout: float = TIMEOUT,
        max_outbox: int = MAX_OUTBOX,
        rng: random.Random | None = None,
    ) -> None:
        self.connection = connection
        self.subscriptions = tuple(subscriptions)
        self.on_message = on_message
        self.on_connect = on_connect
        self.first_wait = first_wait
        self.last_wait = last_wait
        self.keepalive = keepalive
        self.timeout = timeout
        self._rng = rng or random.Random()
        self._lock = threading.Lock()
        self._outbox: collections.deque[Outgoing] = collections.deque()
        self._max_outbox = max_outbox
        self._latest: dict[str, Outgoing] = {}
        self.dropped = 0
        #: messages received too long to take (:data:`MAX_PAYLOAD`)
        self.refused = 0
        self.sent = 0
        self.connections = 0
        self._reached = False
        self._reached_at: str | None = None
        self._error: str | None = None
        self._retry_at: str | None = None
        self._aloop: asyncio.AbstractEventLoop | None = None
        self._wake: asyncio.Event | None = None
        self._stop: asyncio.Event | None = None
        self._client: aiomqtt.Client | None = None
        self._thread: threading.Thread | None = None
        self._started = threading.Event()
        #: set while connected (tests and benches wait on it)
        self.up = threading.Event()

    # -- life cycle ---------------------------------------------------------------
    def start(self) -> BrokerClient:
        self._thread = threading.Thread(target=self._run, name="mqtt", daemon=True)
        self._thread.start()
        self._started.wait(5.0)
        return self

    def close(self, timeout: float = 5.0) -> None:
        """Say ``offline`` (when connected) and leave the broker."""
        aloop, stop = self._aloop, self._stop
        if aloop is not None and stop is not None and not aloop.is_closed():
            with contextlib.suppress(RuntimeError):
                aloop.call_soon_threadsafe(stop.set)
        if self._thread is not None:
            self._thread.join(timeout)

    def crash(self) -> None:
        """Drop the connection as a power cut would: no goodbye, so the broker
        sends the last will (tests of a board lost)."""
        aloop, client = self._aloop, self._client
        if aloop is None or client is None:
            return

        def cut() -> None:
            sock = client._client.socket()
            if isinstance(sock, socket.socket):
                with contextlib.suppress(OSError):  # cut, the descriptor left to paho
                    sock.shutdown(socket.SHUT_RDWR)

        with contextlib.suppress(RuntimeError):
            aloop.call_soon_threadsafe(cut)

    def __enter__(self) -> BrokerClient:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- from any thread -----------------------------------------------------------
    def publish(
        self,
        topic: str,
        payload: bytes | str,
        *,
        qos: int = 0,
        retain: bool = False,
        key: str | None = None,
    ) -> None:
        """Queue a message (never waits). With ``key``, it replaces the message
        of that key still waiting (the latest state is all that matters)."""
        data = payload.encode() if isinstance(payload, str) else payload
        message = Outgoing(topic, data, qos, retain)
        with self._lock:
            if key is not None:
                self._latest[key] = message
            else:
                if len(self._outbox) >= self._max_outbox:
                    self._outbox.popleft()
                    self.dropped += 1
                self._outbox.append(message)
        self._poke()

    def pending(self) -> list[Outgoing]:
        """The messages waiting to be sent: the keyed ones, then the events in order."""
        with self._lock:
            return [*self._latest.values(), *self._outbox]

    def _poke(self) -> None:
        aloop, wake = self._aloop, self._wake
        if aloop is not None and wake is not None:
            with contextlib.suppress(RuntimeError):  # the client has stopped
                aloop.call_soon_threadsafe(wake.set)

    def health(self) -> dict[str, Any]:
        """Whether the broker is reached, since when, or why not and when it is tried again."""
        with self._lock:
            out: dict[str, Any] = {
                "broker": str(self.connection.broker),
                "board_id": self.connection.board_id,
                "reached": self._reached,
                "commands": self.connection.signed_in,
                "dropped": self.dropped,
            }
            if self._reached:
                out["since"] = self._reached_at
            else:
                if self._error is not None:
                    out["error"] = self._error
                if self._retry_at is not None:
                    out["next_try"] = self._retry_at
        return out

    # -- the client's thread ---------------------------------------------------------
    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except Exception:
            log.exception("the broker client stopped")
        finally:
            self.up.clear()

    async def _main(self) -> None:
        self._aloop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._stop = asyncio.Event()
        self._started.set()
        schedule = waits(self.first_wait, self.last_wait)
        said: str | None = None
        while not self._stop.is_set():
            try:
                await self._session()
                schedule = waits(self.first_wait, self.last_wait)  # it was reached: start over
            except (aiomqtt.MqttError, OSError, ssl.SSLError, TimeoutError) as exc:
                why = refusal(exc)
                wait = jittered(next(schedule), self._rng)
                with self._lock:
                    was = self._reached
                    self._reached, self._error = False, why
                    self._retry_at = _iso(time.time() + wait)
                self.up.clear()
                if was or why != said:  # said once, not at every try
                    log.warning(
                        "broker %s not reached: %s; trying again in %.0f s",
                        self.connection.broker,
                        why,
                        wait,
                    )
                    said = why
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stop.wait(), wait)
            finally:
                self._client = None

    def _tls(self) -> ssl.SSLContext | None:
        if not self.connection.broker.tls:
            return None
        return ssl.create_default_context(cafile=self.connection.ca_file or None)

    async def _session(self) -> None:
        """One connection: from signing in until it is lost or the client stops."""
        conn = self.connection
        will = aiomqtt.Will(topics.availability(conn.board_id), topics.OFFLINE, qos=1, retain=True)
        client = aiomqtt.Client(
            conn.broker.host,
            conn.broker.port,
            username=conn.user or None,
            password=conn.password or None,
            identifier=f"boardctl-{conn.board_id}",
            will=will,
            keepalive=self.keepalive,
            timeout=self.timeout,
            max_queued_incoming_messages=MAX_INCOMING,
            # small messages sent at once: without it, one written in two pieces
            # waits for the broker's delayed acknowledgement (some 40 ms)
            socket_options=((socket.IPPROTO_TCP, socket.TCP_NODELAY, 1),),
            tls_context=self._tls(),
            logger=log.getChild("aiomqtt"),
        )
        assert self._stop is not None and self._wake is not None
        async with client:
            self._client = client
            await client.publish(
                topics.availability(conn.board_id), topics.ONLINE, qos=1, retain=True
            )
            for sub in self.subscriptions:
                await client.subscribe(sub, qos=1)
            with self._lock:
                self._reached, self._error, self._retry_at = True, None, None
                self._reached_at = _now_iso()
                self.connections += 1
            self.up.set()
            log.info("broker %s reached as %s", conn.broker, conn.board_id)
            first = self.on_connect() if self.on_connect is not None else []
            for message in first:
                await self._send(client, message)
            receiving = asyncio.create_task(self._receive(client))
            stopping = asyncio.create_task(self._stop.wait())
            try:
                while not self._stop.is_set():
                    await self._drain(client)
                    waking = asyncio.create_task(self._wake.wait())
                    done, _ = await asyncio.wait(
                        {waking, receiving, stopping}, return_when=asyncio.FIRST_COMPLETED
                    )
                    waking.cancel()
                    if receiving in done:
                        receiving.result()  # raises the error that ended it
                        raise aiomqtt.MqttError("the broker closed the connection")
                    self._wake.clear()
                await self._drain(client)
                await client.publish(
                    topics.availability(conn.board_id), topics.OFFLINE, qos=1, retain=True
                )
            finally:
                receiving.cancel()
                stopping.cancel()
                with contextlib.suppress(asyncio.CancelledError, aiomqtt.MqttError):
                    await receiving

    async def _drain(self, client: aiomqtt.Client) -> None:
        """Send what waits: the keyed messages (latest only), then the events
        in order; one that could not be sent goes back to the front."""
        while True:
            with self._lock:
                if self._latest:
                    key = next(iter(self._latest))
                    message = self._latest.pop(key)
                    keyed: str | None = key
                elif self._outbox:
                    message = self._outbox.popleft()
                    keyed = None
                else:
                    return
            try:
                await self._send(client, message)
            except BaseException:
                with self._lock:
                    if keyed is not None:
                        self._latest.setdefault(keyed, message)
                    else:
                        self._outbox.appendleft(message)
                raise

    async def _send(self, client: aiomqtt.Client, message: Outgoing) -> None:
        await client.publish(
            message.topic,
            message.payload,
            qos=message.qos,
            retain=message.retain,
            timeout=self.timeout,
        )
        self.sent += 1

    async def _receive(self, client: aiomqtt.Client) -> None:
        async for message in client.messages:
            payload = message.payload
            data = payload if isinstance(payload, bytes) else str(payload or "").encode()
            if len(data) > MAX_PAYLOAD:
                self.refused += 1
                log.warning(
                    "a message of %d bytes on %s dropped: at most %d are taken",
                    len(data),
                    message.topic,
                    MAX_PAYLOAD,
                )
                continue
            if self.on_message is not None:
                try:
                    self.on_message(str(message.topic), data)
                except Exception:  # a bad message must never end the connection
                    log.exception("a message on %s could not be handled", message.topic)
