"""A player's private link as a QR code a phone's camera opens.

segno (pure Python, no dependencies) draws it as SVG, handed to the page as a
``data:`` address its Content-Security-Policy allows for images.
"""

from __future__ import annotations

import re

#: what a Host header may be for a link built on it: a name or an address and a port
_HOST = re.compile(r"[A-Za-z0-9.\-]{1,253}(:[0-9]{1,5})?|\[[0-9A-Fa-f:.]{2,45}\](:[0-9]{1,5})?")


def link_address(host: str | None, path: str) -> str | None:
    """``http://HOST/PATH`` for the Host a browser asked by; None for a Host
    that is not a plain name or address (then no code is drawn)."""
    if host is None or not _HOST.fullmatch(host):
        return None
    return f"http://{host}{path}"


def qr_image(address: str) -> str:
    """``address`` as a QR code, a ``data:image/svg+xml`` address for an ``<img>``."""
    import segno

    return str(segno.make(address, error="m").svg_data_uri(scale=4, border=2))
