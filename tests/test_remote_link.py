"""Remote play without a broker: the seats that name another board, the
messages two boards exchange (any bytes read safely), and the link between
them as a board's controller sees it: each turn answered once, whatever is
said twice or lost, and a record that differs said as such."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from boardctl.controller.opponent import RemoteFailed, RemoteMoved, Think
from boardctl.engines import Match, create
from boardctl.fleet import remote
from boardctl.fleet.remote import RemoteLink, mirrored, parse
from boardctl.seats import REMOTE, Seat, SeatError, Seats


def test_a_remote_seat_is_written_as_people_type_it() -> None:
    seats = Seats.of("hands,remote:Table-2")
    assert str(seats) == "hands,remote:Table-2"  # a board's id keeps its case
    assert seats[1] == Seat(REMOTE, board="Table-2") and seats.any_remote
    numbered = Seat(REMOTE, 0, 42, "t2")
    assert Seat.from_json(numbered.to_json()) == numbered
    assert numbered.to_json() == {"player": "remote", "board": "t2", "game": 42}
    for bad in ("remote:", "remote:a/b", "remote:+", "remote:#"):
        with pytest.raises(SeatError, match="remote:table-2"):
            Seat.from_str(bad)


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("remote:a,remote:b", "one other board at most"),
        ("computer,remote:b", "seats no computer here"),
        ("remote:b,remote:b", "leaves none here"),
    ],
)
def test_seats_that_cannot_play_with_another_board_are_refused(text: str, why: str) -> None:
    with pytest.raises(SeatError, match=why):
        Seats.of(text).check(2, "shiftago")


def test_the_other_boards_seats_are_mirrored() -> None:
    assert mirrored(["hands", "remote:b"], "b", "a") == ["remote:a", "hands"]
    assert mirrored(["hands", "remote:c"], "b", "a") is None  # not this board's game
    assert mirrored(["hands", "hands"], "b", "a") is None  # seats no one here


@settings(deadline=None)  # timed by the machine's load, not by the code
@given(st.binary(max_size=300))
def test_any_bytes_are_read_safely(payload: bytes) -> None:
    body = parse(payload)
    assert body is None or body["type"] == "game"


@settings(deadline=None)  # timed by the machine's load, not by the code
@given(
    st.dictionaries(
        st.sampled_from(["v", "type", "game", "from", "name", "options", "seats", "moves"]),
        st.none() | st.integers() | st.text(max_size=5) | st.lists(st.text(max_size=3)),
    )
)
def test_a_message_missing_or_mistyping_a_field_is_ignored(fields: dict[str, Any]) -> None:
    body = parse(json.dumps(fields).encode())
    assert body is None or isinstance(body["moves"], list)


def test_a_message_too_long_is_ignored() -> None:
    assert parse(b" " * (remote.MAX_MESSAGE + 1)) is None


class Wire:
    """Two links whose messages are handed over when the test says."""

    def __init__(self) -> None:
        self.said: list[tuple[str, bytes]] = []
        self.answers: list[RemoteMoved | RemoteFailed] = []
        self.link = RemoteLink("b", lambda t, p: self.said.append((t, p)), emit=self.answers.append)


class Controller:
    """What the link reads of a controller: the game, its seats, its engine."""

    def __init__(self, seats: Seats, moves: list[str]) -> None:
        self.engine = create("shiftago", {})
        self.seats = seats
        self.match = Match.from_moves(self.engine, moves)


def _from_a(moves: list[str], number: int = 7, **more: Any) -> bytes:
    body = {
        "v": 1,
        "type": "game",
        "from": "a",
        "to": "b",
        "game": number,
        "name": "shiftago",
        "options": {},
        "seats": ["hands", "remote:b"],
        "seq": len(moves),
        "moves": moves,
        "ack": 0,
        "over": False,
        "left": False,
        **more,
    }
    return json.dumps(body).encode()


def _ask(wire: Wire, controller: Controller, request_id: int) -> Think:
    match = controller.match
    request = Think(request_id, controller.engine, match.state, 0, 0, 7, len(match.actions))
    wire.link.ask(request)
    return request


def test_each_turn_is_answered_once_whatever_is_said_twice() -> None:
    wire = Wire()
    seats = Seats((Seat(REMOTE, 0, 7, "a"), Seat()))
    board = Controller(seats, [])
    wire.link(board, None, ())  # the game under way here: said to a
    assert json.loads(wire.said[-1][1])["seats"] == ["remote:a", "hands"]
    _ask(wire, board, 1)
    assert wire.answers == []  # a has not played
    topic = "boardctl/a/remote/b"
    wire.link.received(topic, _from_a(["W1"]))
    wire.link.received(topic, _from_a(["W1"]))  # said again (a reconnected)
    assert wire.answers == [RemoteMoved(1, ("W1",))]
    # a message on a's topic that says it is from elsewhere is not taken
    wire.link.received("boardctl/c/remote/b", _from_a(["W1", "E1", "W2"]))
    board = Controller(seats, ["W1", "E7"])
    wire.link(board, None, ())
    said = json.loads(wire.said[-1][1])
    assert (said["seq"], said["moves"], said["ack"]) == (2, ["W1", "E7"], 1)
    _ask(wire, board, 2)
    wire.link.received(topic, _from_a(["W1", "E7", "W2"]))
    assert wire.answers[-1] == RemoteMoved(2, ("W2",))
    assert len(wire.answers) == 2


def test_a_record_that_differs_is_said_as_such() -> None:
    wire = Wire()
    board = Controller(Seats((Seat(REMOTE, 0, 7, "a"), Seat())), ["W1", "E7"])
    wire.link(board, None, ())
    _ask(wire, board, 1)
    wire.link.received("boardctl/a/remote/b", _from_a(["W1", "E6", "W2"]))
    (answer,) = wire.answers
    assert isinstance(answer, RemoteFailed)
    assert "move 2 (E6 there, E7 here)" in answer.reason


def test_an_invitation_is_accepted_with_the_games_number() -> None:
    wire = Wire()
    wire.link.received("boardctl/a/remote/b", _from_a([], number=99))
    (invitation,) = wire.link.invitations().values()
    assert invitation["seats"] == ["remote:a", "hands"]
    game, _, seats = wire.link.accept("a")
    assert game == "shiftago" and seats[0] == Seat(REMOTE, 0, 99, "a")
    # the same game asked for by hand takes the invitation's number too
    _, adopted = wire.link.adopt("shiftago", None, Seats.of("remote:a"))
    assert adopted[0].seed == 99
    with pytest.raises(LookupError, match="the boards inviting this one: a"):
        wire.link.accept("c")
    wire.link.decline("a")
    assert json.loads(wire.said[-1][1])["left"] is True
    assert wire.link.invitations() == {}


def test_a_game_the_other_board_left_is_said_to_be_over_here() -> None:
    wire = Wire()
    board = Controller(Seats((Seat(REMOTE, 0, 7, "a"), Seat())), [])
    wire.link(board, None, ())
    _ask(wire, board, 1)
    wire.link.received("boardctl/a/remote/b", _from_a([], left=True))
    (answer,) = wire.answers
    assert isinstance(answer, RemoteFailed) and "a has left it" in answer.reason


def test_a_board_does_not_invite_itself() -> None:
    wire = Wire()
    with pytest.raises(ValueError, match="b is this board"):
        wire.link.adopt("shiftago", None, Seats.of("hands,remote:b"))


_ANY_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner),
    max_leaves=4,
)


@settings(deadline=None)  # timed by the machine's load, not by the code
@given(
    st.dictionaries(st.sampled_from(["ack", "seq", "left", "over", "game"]), _ANY_JSON),
    st.lists(st.sampled_from(["W1", "E7", "W2"]), max_size=3),
)
def test_a_message_with_a_counter_or_flag_of_another_type_is_ignored(
    fields: dict[str, Any], moves: list[str]
) -> None:
    """Whatever the other board says in ``ack``, ``seq``, ``left``, ``over``
    and ``game``, the link reads it or ignores it, and keeps working: it
    answers, says its record again, and reports, on every turn after."""
    now = [0.0]
    wire = Wire()
    link = wire.link
    link.clock = lambda: now[0]
    board = Controller(Seats((Seat(REMOTE, 0, 7, "a"), Seat())), ["W1"])
    link(board, None, ())
    before = len(wire.said)
    payload = json.loads(_from_a(moves))
    payload.update(fields)
    body = parse(json.dumps(payload).encode())
    if body is not None:
        for counter in ("ack", "seq", "game"):
            assert type(body[counter]) is int and body[counter] >= 0
        assert type(body["left"]) is bool and type(body["over"]) is bool
    link.received("boardctl/a/remote/b", json.dumps(payload).encode())
    _ask(wire, board, 1)
    now[0] += remote.RESEND + 1
    link(board, None, ())  # the loop's next turn: says its record again if unacknowledged
    link.report()
    link.invitations()
    if body is None:
        assert len(wire.said) == before + 1, "nothing acknowledged: said again"


def test_a_null_acknowledgement_breaks_nothing() -> None:
    now = [0.0]
    wire = Wire()
    wire.link.clock = lambda: now[0]
    board = Controller(Seats((Seat(REMOTE, 0, 7, "a"), Seat())), ["W1"])
    wire.link(board, None, ())
    before = len(wire.said)
    wire.link.received("boardctl/a/remote/b", _from_a(["W1"], ack=None))
    now[0] += remote.RESEND + 1
    wire.link(board, None, ())
    assert len(wire.said) == before + 1, "said again, as nothing was acknowledged"


def test_senders_are_bounded_and_named_as_boards() -> None:
    """Messages from any number of boards keep a bounded memory and a
    bounded list of invitations; a topic that does not name a board is not read."""
    wire = Wire()
    for n in range(remote.MAX_PEERS * 3):
        sender = f"fake-{n}"
        wire.link.received(
            f"boardctl/{sender}/remote/b",
            _from_a([], number=n + 1, **{"from": sender, "seats": ["hands", "remote:b"]}),
        )
    invitations = wire.link.invitations()
    assert len(invitations) == remote.MAX_PEERS
    assert f"fake-{remote.MAX_PEERS * 3 - 1}" in invitations, "the newest is kept"
    wire.link.decline(f"fake-{remote.MAX_PEERS * 3 - 1}")
    assert len(wire.link.invitations()) == remote.MAX_PEERS - 1
    for bad in ("", "a.b", "-x", "x" * 65):
        wire.link.received(
            f"boardctl/{bad}/remote/b",
            _from_a([], **{"from": bad}),
        )
    assert not any(bad in wire.link.invitations() for bad in ("", "a.b", "-x", "x" * 65))


def test_the_partner_is_kept_however_many_others_say_something() -> None:
    wire = Wire()
    board = Controller(Seats((Seat(REMOTE, 0, 7, "a"), Seat())), [])
    wire.link(board, None, ())
    wire.link.received("boardctl/a/remote/b", _from_a([]))
    for n in range(remote.MAX_PEERS * 2):
        sender = f"fake-{n}"
        wire.link.received(f"boardctl/{sender}/remote/b", _from_a([], **{"from": sender}))
    _ask(wire, board, 1)
    wire.link.received("boardctl/a/remote/b", _from_a(["W1"]))
    assert wire.answers == [RemoteMoved(1, ("W1",))]
    assert wire.link.report()["game"]["joined"] is True
