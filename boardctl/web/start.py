"""Starting the web pages beside the daemon's loop (``[web] listen``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from boardctl.board import BoardProfile
from boardctl.config import Config
from boardctl.controller.loop import Loop
from boardctl.controller.machine import ControllerError
from boardctl.controller.phones import NotYourTurn, Phones
from boardctl.errors import ConfigError
from boardctl.web.auth import Keys, check_settings
from boardctl.web.publish import Publisher
from boardctl.web.server import Hands, WebServer


def start_web(
    config: Config,
    profile: BoardProfile,
    loop: Loop,
    *,
    hands: Hands | None = None,
    stats: Any = None,
    phones: Phones | None = None,
    venue: Callable[[], dict[str, Any]] | None = None,
    venue_stats: Callable[[], dict[str, Any]] | None = None,
    voiced: Callable[[int], bytes | None] | None = None,
) -> WebServer:
    """The web server of ``config``'s ``[web]``, watching ``loop``; ``hands``
    (the simulator's) adds the sim page, ``stats`` (the game database's
    :class:`~boardctl.daemon.statistics.Statistics`) the plots, ``venue`` (the
    broker's boards) the venue's page, ``phones`` (the controller's phone
    seats) the private pages' moves, ``voiced`` (the sound's) the board's
    sentences as WAV for a page whose browser has no voice. :class:`ConfigError`
    names a bad setting or an address that cannot be listened on."""
    web = config.web
    where = config.where.get(("web", "listen"), "[web] listen")
    check_settings(
        web.listen,
        web.password_hash,
        web.token,
        lambda key: config.where.get(("web", key), f"[web] {key}"),
    )
    if phones is not None:
        loop.commands["phone"] = phone_command(loop, phones)
    publisher = Publisher(
        profile, reports=getattr(loop, "reports", None), palette_of=loop.palette_of
    )
    loop.watchers.append(publisher)
    try:
        return WebServer(
            web.listen,
            loop.submit,
            publisher,
            profile,
            keys=Keys(web.password_hash, web.token),
            hands=hands,
            stats=stats,
            venue=venue,
            venue_stats=venue_stats,
            voiced=voiced,
            language=config.board.language,
        )
    except OSError as exc:
        loop.watchers.remove(publisher)
        raise ConfigError(
            f"{where} = {web.listen!r}: cannot listen there: {exc.strerror or exc}; choose "
            'another port, e.g. "127.0.0.1:8081", or "" for no web pages'
        ) from None


def phone_command(
    loop: Loop, phones: Phones
) -> Callable[[Mapping[str, Any], float], dict[str, Any]]:
    """The loop's ``phone`` command: a phone seat's page asks whether it is its
    turn and which moves it may choose, or sends the move chosen."""

    def answer(body: Mapping[str, Any], now: float) -> dict[str, Any]:
        seat = body.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise ControllerError("'seat' must be a seat's number")
        action = body.get("action")
        if action is None:
            return phones.turn(seat)
        ply = body.get("ply")
        try:
            event = phones.chosen(seat, str(action), ply if isinstance(ply, int) else None)
        except NotYourTurn as exc:
            raise ControllerError(str(exc)) from None
        loop.controller.computer_answered(event, now)
        return {"chosen": action, **phones.turn(seat)}

    return answer
