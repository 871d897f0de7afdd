"""Each kind of fault says what it is, in words and on the LEDs, and goes
away by itself when its cause does: a full disk is not a lost cable."""

from __future__ import annotations

from controller_support import profile_for

from boardctl.controller.scenes import Palette, render
from boardctl.controller.view import Fault, Phase, View, fault_words
from boardctl.engines import create
from boardctl.sim.screen import controller_says

PROFILE = profile_for(create("shiftago"))
PALETTE = Palette()


def _frames(fault: Fault) -> list[tuple[tuple[int, int, int], ...]]:
    view = View(Phase.FAULT, fault=fault)
    return [render(view, PROFILE, PALETTE, t / 10) for t in range(40)]


def test_a_storage_fault_and_a_sensor_fault_light_the_board_differently() -> None:
    sensors, storage = _frames(Fault.SENSORS), _frames(Fault.STORAGE)
    assert sensors != storage
    # the lost sensors: every LED alike, a slow magenta pulse
    assert all(len(set(frame)) == 1 for frame in sensors)
    # the full disk: cyan, the LEDs in two halves blinking in turn
    assert any(len(set(frame)) == 2 for frame in storage)
    lit = {led for frame in storage for led in frame if led != (0, 0, 0)}
    assert lit == {PALETTE.restore}


def test_each_fault_has_its_own_words_and_says_it_recovers_by_itself() -> None:
    cable = fault_words(Fault.SENSORS)
    disk = fault_words(Fault.STORAGE)
    assert "cable" in cable and "cable" not in disk
    assert "saved" in disk and "free space" in disk
    assert all("by itself" in words for words in (cable, disk))


def test_the_simulators_screen_names_the_fault_the_controller_reports() -> None:
    full = {
        "game": "shiftago",
        "phase": "fault",
        "fault_kind": "storage",
        "fault": "cannot write to games.db: database or disk is full",
    }
    said = " ".join(controller_says(full))
    assert "cannot be saved" in said and "disk is full" in said and "cable" not in said
    lost = {"game": "shiftago", "phase": "fault", "fault_kind": "sensors"}
    assert "cable" in " ".join(controller_says(lost))


class _Card:
    """A recorder on a card that fills up and is then cleared."""

    def __init__(self) -> None:
        self.full = False
        self.moves: list[str] = []

    def begin(
        self, game: str, options: object, seed: int | None = None, seats: object = None
    ) -> None:
        pass

    def record(self, move: str, public: str | None = None, excluded: object = None) -> None:
        if self.full:
            from boardctl.controller.store import StoreError

            raise StoreError("cannot write to games.db: database or disk is full")
        self.moves.append(move)

    def asked(self, ply: int, tried: tuple[str, ...]) -> None:
        pass

    def undo(self, steps: int, amended: bool = False) -> None:
        pass

    def finish(self, result: object) -> None:
        pass


def test_a_full_disk_is_a_storage_fault_that_ends_when_space_is_freed() -> None:
    from controller_support import Table

    from boardctl.controller.loop import Loop
    from boardctl.controller.machine import Controller
    from boardctl.sim import hands

    card = _Card()
    controller = Controller(profile_for(create("shiftago")), recorder=card)
    table = Table(controller)
    loop = Loop(controller, _Dark(), clock=lambda: table.now)

    def wait(seconds: float) -> None:  # time passes as the loop lets it: ticks only
        end = table.now + seconds
        while table.now < end:
            table.now = min(end, table.now + 0.25)
            loop._guarded(controller.tick, table.now)

    card.full = True
    table.apply(hands.insert(controller.match.engine.board(), table.layout, "W1", "p0"))
    wait(controller.timing.settle + 0.01)
    assert controller.state is Phase.FAULT
    status = controller.status()
    assert status["fault_kind"] == "storage" and "disk is full" in status["fault"]
    assert controller.view().fault is Fault.STORAGE
    wait(30.0)  # still full: still the storage fault, the move still not played
    assert controller.state is Phase.FAULT and controller.match.actions == []
    card.full = False  # space freed; no sensor event comes
    wait(30.0)
    assert controller.state is not Phase.FAULT, controller.status()
    assert card.moves == ["W1"] and controller.match.moves_text() == ["W1"]


def test_lost_sensors_are_a_sensor_fault_naming_the_reason() -> None:
    from controller_support import Table

    from boardctl.controller.machine import Controller
    from boardctl.sensing import LinkDown

    controller = Controller(profile_for(create("shiftago")))
    table = Table(controller)
    controller.feed(LinkDown("serial port /dev/boardctl-mcu vanished"), table.now)
    status = controller.status()
    assert status["phase"] == "fault" and status["fault_kind"] == "sensors"
    assert "vanished" in status["fault"]
    assert controller.view().fault is Fault.SENSORS


class _Dark:
    def show(self, frame: object) -> None:
        pass
