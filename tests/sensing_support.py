"""What the GPIO and SPI sensing tests share: an ``emit`` that queues the events."""

from __future__ import annotations

import queue

from boardctl.sensing import SensorChange, SensorEvent

WAIT = 2.0  # seconds: generous, only spent when something is wrong


class Events:
    """An ``emit`` callable; the test takes the events in order, waiting for each."""

    def __init__(self) -> None:
        self.q: queue.Queue[SensorEvent] = queue.Queue()

    def __call__(self, event: SensorEvent) -> None:
        self.q.put(event)

    def next(self) -> SensorEvent:
        return self.q.get(timeout=WAIT)

    def next_change(self) -> SensorChange:
        event = self.next()
        assert isinstance(event, SensorChange), event
        return event
