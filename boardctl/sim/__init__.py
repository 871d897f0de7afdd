"""The simulated board: a virtual microcontroller, a recording LED strip and the
hands that play on them."""
