"""The address phones use to reach the board's pages, and its QR code.

A board served on every address (``0.0.0.0:8080``) is reached by phones at
the Pi's address on the venue's network: :func:`lan_address` finds it (the
address the Pi would send from, asked of the kernel without sending
anything). :func:`qr_svg` and :func:`qr_text` draw the address as a QR code
(segno, pure Python: a code a phone's camera reads) for the operator page,
a printed card on the table, or the terminal.
"""

from __future__ import annotations

import ipaddress
import re
import socket

from boardctl.web.auth import split_listen

#: an address on no network: connecting a UDP socket to it sends nothing, and
#: the kernel picks the address it would send from
_PROBE = ("10.254.254.254", 9)
#: the longest address a QR code is drawn for (a Host header is the browser's)
MAX_ADDRESS = 200
#: a Host header worth drawing: a name or an address, and a port
_HOST = re.compile(r"[A-Za-z0-9.-]+(:\d{1,5})?|\[[0-9A-Fa-f:.]+\](:\d{1,5})?")


def lan_address() -> str | None:
    """This machine's address on its network, or None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_loopback else address


def _loopback(host: str) -> bool:
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def page_address(
    listen: str, host: str | None = None, lan: str | None = None, port: int | None = None
) -> str:
    """The live board's address for a phone: ``host`` (the ``Host`` a browser
    used, with its port) unless it is this machine's own, else the listening
    address (on ``port`` if given: the one bound), a wildcard one replaced
    by ``lan``. A board listening on loopback only is reached from this
    machine alone, and its address says so."""
    if host and len(host) <= MAX_ADDRESS and _HOST.fullmatch(host):
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 or "]:" in host else host
        if not _loopback(name):
            return f"http://{host}/"
    bound, listened = split_listen(listen)
    port = listened if port is None else port
    if bound in ("0.0.0.0", "::"):
        bound = lan or "127.0.0.1"
    elif bound == "localhost":
        bound = "127.0.0.1"
    shown = f"[{bound}]" if ":" in bound else bound
    return f"http://{shown}:{port}/"


def qr_svg(text: str) -> str:
    """``text`` as a QR code, an SVG picture (black on white, with its margin)."""
    import io

    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=8, xmldecl=False, light="#fff")
    return out.getvalue().decode("utf-8")


def qr_text(text: str) -> str:
    """``text`` as a QR code drawn with block characters, for a terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(text, error="m").terminal(out=out, compact=True)
    return out.getvalue()
