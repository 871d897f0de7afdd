"""The controller: keeps the physical board and the rules engine in step and
decides what the LEDs show.

Its core (:mod:`.reconcile`, :mod:`.scenes`, :mod:`.machine`) is pure: no I/O,
no threads, no clock. :mod:`.store`, :mod:`.loop` and :mod:`.control` wrap it.
"""
