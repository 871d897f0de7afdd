"""The serial link to the board's microcontroller: protocol, host link, firmware."""
