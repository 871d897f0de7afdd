"""The daemon: wires a profile's sensing and LEDs, the controller and the store,
and runs under systemd."""
