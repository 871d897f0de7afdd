"""The controller: keeps the physical board and the rules engine in step and
decides what the LEDs show.

Its core is pure (no I/O, no threads, no clock, no random source):
:mod:`.reconcile` (what the sensed board means), :mod:`.tracking` (the board as
tracked), :mod:`.phases` (the phase machine), :mod:`.choosing`, :mod:`.chance`,
:mod:`.present` (the view and the status), :mod:`.view` and :mod:`.scenes`
(the LEDs), :mod:`.cursor` (the choice on offer), :mod:`.deadlines`, and
:mod:`.machine` (the controller that ties them together), with its
:mod:`.commands` and :mod:`.buttons`.
:mod:`.store`, :mod:`.loop` and :mod:`.control` wrap it.
"""
