"""Reading one HTTP request within bounds, before microdot sees it.

microdot reads a request line by line with a time limit per line and no limit
on the number of headers; it parses what it reads with ``split`` and ``int``
and prints a traceback for whatever does not fit. Here the whole request (the
request line, the headers and the body) must arrive within
:data:`REQUEST_SECONDS`, the headers are bounded in number and size, and the
request is checked for everything microdot assumes, so that what it is handed
always parses. Whatever is wrong is a :class:`Refused` with the status to
answer and a short reason, never an exception of the server's.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

#: seconds a client has to send its whole request: line, headers and body
REQUEST_SECONDS = 10.0
#: header lines in one request (a browser sends about 15)
MAX_HEADERS = 32
#: bytes of one line of the request (the request line or a header)
MAX_LINE = 4 * 1024
#: bytes of the request line and the headers together
MAX_HEAD = 8 * 1024
#: bytes of a request's body (a command is a short JSON object)
MAX_BODY = 16 * 1024

_METHOD = re.compile(rb"[A-Z]{1,16}")
_TARGET = re.compile(rb"/[\x21-\x7e]*")
_NAME = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}")
_REASONS = {
    200: "OK",
    400: "Bad Request",
    404: "Not Found",
    408: "Request Timeout",
    413: "Content Too Large",
    414: "URI Too Long",
    429: "Too Many Requests",
    431: "Request Header Fields Too Large",
    501: "Not Implemented",
    503: "Service Unavailable",
}


class Refused(Exception):
    """A request the server will not take: the status to answer and why."""

    def __init__(self, status: int, why: str) -> None:
        super().__init__(why)
        self.status = status
        self.why = why


@dataclass(frozen=True, slots=True)
class Head:
    """A request as read: its line, its headers (decoded) and its body."""

    method: str
    target: str
    #: "1.0" or "1.1"
    version: str
    headers: tuple[tuple[str, str], ...]
    body: bytes

    @property
    def path(self) -> str:
        return self.target.split("?", 1)[0]

    def header(self, name: str) -> str | None:
        wanted = name.lower()
        for key, value in self.headers:
            if key.lower() == wanted:
                return value
        return None


async def read_request(reader: asyncio.StreamReader) -> Head | None:
    """The next request on ``reader``; None when the client closed the
    connection without sending one. The caller bounds the time it takes
    (:data:`REQUEST_SECONDS`); the reader's own limit must be at least
    :data:`MAX_LINE`."""
    lines: list[bytes] = []
    size = 0
    while True:
        try:
            raw = await reader.readuntil(b"\n")
        except asyncio.LimitOverrunError:
            if not lines:
                raise Refused(414, f"the request line is longer than {MAX_LINE} bytes") from None
            raise Refused(431, f"a header is longer than {MAX_LINE} bytes") from None
        except asyncio.IncompleteReadError as exc:
            if not lines and not exc.partial.strip():
                return None
            raise Refused(400, "the request ended before its headers did") from None
        size += len(raw)
        if len(raw) > MAX_LINE:
            raise Refused(431 if lines else 414, f"a line is longer than {MAX_LINE} bytes")
        if size > MAX_HEAD:
            raise Refused(431, f"the request's headers are longer than {MAX_HEAD} bytes")
        line = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        if not line:
            if lines:
                break
            continue  # an empty line before the request line is allowed
        lines.append(line)
        if len(lines) > MAX_HEADERS + 1:
            raise Refused(431, f"more than {MAX_HEADERS} headers")
    method, target, version = _request_line(lines[0])
    headers = tuple(_header(line) for line in lines[1:])
    length = _content_length(headers)
    body = b""
    if length:
        try:
            body = await reader.readexactly(length)
        except asyncio.IncompleteReadError:
            raise Refused(400, "the body ended before its Content-Length") from None
    return Head(method, target, version, headers, body)


def _request_line(line: bytes) -> tuple[str, str, str]:
    parts = line.split(b" ")
    if len(parts) != 3 or not _METHOD.fullmatch(parts[0]) or not _TARGET.fullmatch(parts[1]):
        raise Refused(400, "the request line must read like GET /score HTTP/1.1")
    if parts[2] not in (b"HTTP/1.0", b"HTTP/1.1"):
        raise Refused(400, "this server speaks HTTP/1.0 and HTTP/1.1")
    return parts[0].decode(), parts[1].decode(), parts[2][5:].decode()


def _header(line: bytes) -> tuple[str, str]:
    name, colon, value = line.partition(b":")
    if not colon or not _NAME.fullmatch(name):
        raise Refused(400, "a header must read like Name: value")
    try:
        text = value.strip(b" \t").decode("utf-8")
    except UnicodeDecodeError:
        raise Refused(400, f"the header {name.decode()} is not UTF-8 text") from None
    if any(ord(ch) < 32 and ch != "\t" for ch in text):
        raise Refused(400, f"the header {name.decode()} holds control characters")
    return name.decode(), text


def _content_length(headers: tuple[tuple[str, str], ...]) -> int:
    lengths = {value for name, value in headers if name.lower() == "content-length"}
    if any(name.lower() == "transfer-encoding" for name, _ in headers):
        raise Refused(501, "send the body with a Content-Length, not in chunks")
    if not lengths:
        return 0
    if len(lengths) > 1:
        raise Refused(400, "two different Content-Length headers")
    value = lengths.pop()
    if not value.isascii() or not value.isdigit() or len(value) > 9:
        raise Refused(400, "Content-Length must be a number of bytes")
    if int(value) > MAX_BODY:
        raise Refused(413, f"a request's body may be at most {MAX_BODY} bytes")
    return int(value)


def plain(status: int, text: str, headers: dict[str, str] | None = None) -> bytes:
    """A whole response with a short text body, ready to write."""
    body = (text + "\n").encode()
    lines = [
        f"HTTP/1.0 {status} {_REASONS.get(status, 'Error')}",
        "Content-Type: text/plain; charset=utf-8",
        f"Content-Length: {len(body)}",
        "Cache-Control: no-store",
        "Connection: close",
        *(f"{k}: {v}" for k, v in (headers or {}).items()),
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body
