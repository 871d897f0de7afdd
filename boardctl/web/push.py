"""The live board's push streams (server-sent events), a budget of their own.

Every viewer's phone holds one stream open for as long as it shows the board,
so streams are counted apart from the requests of pages and commands: at most
:data:`MAX_STREAMS` at once, and one more is answered 503 with Retry-After at
once. A stream's place is freed the moment its viewer closes it: each
stream's task waits for the end of its connection, not for the next write.

The streams are written by one broadcaster, not each by a task of its own:
when the loop publishes, the changed parts (the board, the state, the lights)
are encoded once and the same bytes handed to every stream that is in step,
at most once every :data:`PUSH_GAP` seconds (the latest state, never a
backlog). A stream whose viewer does not take what it is sent is skipped
until it catches up, and cut off after :data:`STALL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable

from boardctl import i18n
from boardctl.web.http import plain
from boardctl.web.publish import Publisher

#: live-board push streams open at once; one more is answered 503 at once
MAX_STREAMS = 200
#: what a viewer beyond them is told to wait before trying again, in seconds
RETRY_AFTER = 10
#: a push stream sends at most one update per this many seconds (latest state only)
PUSH_GAP = 0.04
#: a push stream sends a keep-alive comment after this many quiet seconds
KEEPALIVE = 15.0
#: bytes a stream may have waiting to be sent; beyond, it is skipped until it catches up
STREAM_BUFFER = 32 * 1024
#: a stream that has not caught up for this many seconds is cut off
STALL_SECONDS = 10.0
#: bytes a viewer may send on its stream (it has nothing to say); beyond, it is cut off
MAX_INPUT = 4 * 1024
#: the parts of the published state, in the order a new stream gets them
PARTS = ("board", "state", "lights")

_HEADERS = (
    b"HTTP/1.0 200 OK\r\n"
    b"Content-Type: text/event-stream\r\n"
    b"Cache-Control: no-store\r\n"
    b"X-Accel-Buffering: no\r\n"
    b"\r\n"
    b"retry: 1000\n\n"
)


class _Stream:
    __slots__ = ("behind_since", "language", "sent", "transport")

    def __init__(self, transport: asyncio.WriteTransport, language: str) -> None:
        self.transport = transport
        #: the language its viewer reads the board's texts in
        self.language = language
        #: the version of each part this stream was last sent
        self.sent: tuple[int, ...] = (0,) * len(PARTS)
        #: since when it has had more than STREAM_BUFFER bytes waiting
        self.behind_since: float | None = None


class Pushes:
    """The push streams of one web server, written from its asyncio loop."""

    def __init__(
        self,
        publisher: Publisher,
        *,
        most: int = MAX_STREAMS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.publisher = publisher
        self.most = most
        self.clock = clock
        self._streams: set[_Stream] = set()
        self._due: asyncio.TimerHandle | None = None
        self._keepalive: asyncio.TimerHandle | None = None
        self._last = 0.0
        #: updates handed to streams so far (each stream's write counts once)
        self.sent = 0

    def __len__(self) -> int:
        return len(self._streams)

    @property
    def full(self) -> bool:
        return len(self._streams) >= self.most

    async def serve(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        language: str = i18n.DEFAULT,
    ) -> None:
        """One viewer's stream, from its headers until the viewer goes (its
        place is free as soon as this returns), or 503 when all are taken. The
        texts it carries are in ``language``, its viewer's."""
        if self.full:
            writer.write(
                plain(
                    503,
                    f"{self.most} people are watching the board: try again in a moment",
                    {"Retry-After": str(RETRY_AFTER)},
                )
            )
            return
        transport = writer.transport
        stream = _Stream(transport, language)
        self._streams.add(stream)
        try:
            transport.write(_HEADERS)
            self._send(stream, self._latest(language), {})
            self._arm_keepalive()
            taken = 0
            while True:  # the viewer says nothing; the end of its connection ends the stream
                data = await reader.read(1024)
                if not data:
                    return
                taken += len(data)
                if taken > MAX_INPUT:
                    return
        except OSError:
            return
        finally:
            self._streams.discard(stream)

    def wake(self) -> None:
        """There is news (on the web server's loop): send it to every stream
        soon, at most once per :data:`PUSH_GAP`."""
        if self._due is not None or not self._streams:
            return
        aloop = asyncio.get_running_loop()
        delay = max(0.0, self._last + PUSH_GAP - aloop.time())
        self._due = aloop.call_later(delay, self.flush)

    def flush(self) -> None:
        """Hand every stream the parts it has not had yet."""
        self._due = None
        aloop = asyncio.get_running_loop()
        self._last = aloop.time()
        latest: dict[str, tuple[tuple[int, bytes], ...]] = {}
        chunks: dict[tuple[str, tuple[int, ...]], bytes] = {}
        behind = False
        now = self.clock()
        for stream in list(self._streams):
            transport = stream.transport
            if transport.is_closing():
                continue
            if transport.get_write_buffer_size() > STREAM_BUFFER:
                if stream.behind_since is None:
                    stream.behind_since = now
                elif now - stream.behind_since > STALL_SECONDS:
                    transport.abort()  # its task sees the end and frees the place
                    continue
                behind = True
                continue
            stream.behind_since = None
            if stream.language not in latest:
                latest[stream.language] = self._latest(stream.language)
            self._send(stream, latest[stream.language], chunks)
        if behind:
            self._due = aloop.call_later(PUSH_GAP, self.flush)

    def close(self) -> None:
        for handle in (self._due, self._keepalive):
            if handle is not None:
                handle.cancel()
        for stream in list(self._streams):
            with contextlib.suppress(RuntimeError):
                stream.transport.abort()

    # -- inside ---------------------------------------------------------------------
    def _latest(self, language: str) -> tuple[tuple[int, bytes], ...]:
        return tuple(self.publisher.encoded(part, language) for part in PARTS)

    def _send(
        self,
        stream: _Stream,
        latest: tuple[tuple[int, bytes], ...],
        chunks: dict[tuple[str, tuple[int, ...]], bytes],
    ) -> None:
        versions = tuple(version for version, _ in latest)
        if versions == stream.sent:
            return
        chunk = chunks.get((stream.language, stream.sent))
        if chunk is None:
            chunk = b"".join(
                b"event: " + part.encode() + b"\ndata: " + data + b"\n\n"
                for part, (version, data), had in zip(PARTS, latest, stream.sent, strict=True)
                if version and version != had
            )
            chunks[(stream.language, stream.sent)] = chunk
        stream.sent = versions
        if chunk:
            stream.transport.write(chunk)
            self.sent += 1

    def _arm_keepalive(self) -> None:
        if self._keepalive is None:
            self._keepalive = asyncio.get_running_loop().call_later(KEEPALIVE, self._ping)

    def _ping(self) -> None:
        """A comment on every stream now and then: proxies keep it open, and
        a viewer gone without a word is noticed."""
        self._keepalive = None
        line = b": " + time.strftime("%H:%M:%S").encode() + b"\n\n"
        for stream in list(self._streams):
            if not stream.transport.is_closing():
                stream.transport.write(line)
        if self._streams:
            self._arm_keepalive()
