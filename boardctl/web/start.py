"""Starting the web pages beside the daemon's loop (``[web] listen``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boardctl.board import BoardProfile
from boardctl.config import Config
from boardctl.controller.loop import Loop
from boardctl.errors import ConfigError
from boardctl.web.auth import Keys, check_settings
from boardctl.web.publish import Publisher
from boardctl.web.server import WebServer


def start_web(
    config: Config,
    profile: BoardProfile,
    loop: Loop,
    *,
    hands: Callable[[str], Any] | None = None,
) -> WebServer:
    """The web server of ``config``'s ``[web]``, watching ``loop``; ``hands``
    (the simulator's) adds the sim page. :class:`ConfigError` names a bad
    setting or an address that cannot be listened on."""
    web = config.web
    where = config.where.get(("web", "listen"), "[web] listen")
    check_settings(
        web.listen,
        web.password_hash,
        web.token,
        lambda key: config.where.get(("web", key), f"[web] {key}"),
    )
    publisher = Publisher(profile)
    loop.watchers.append(publisher)
    try:
        return WebServer(
            web.listen,
            loop.submit,
            publisher,
            profile,
            keys=Keys(web.password_hash, web.token),
            hands=hands,
        )
    except OSError as exc:
        loop.watchers.remove(publisher)
        raise ConfigError(
            f"{where} = {web.listen!r}: cannot listen there: {exc.strerror or exc}; choose "
            'another port, e.g. "127.0.0.1:8081", or "" for no web pages'
        ) from None
