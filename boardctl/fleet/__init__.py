"""A venue's boards on an MQTT broker: each board's state, events and commands,
Home Assistant's discovery, and remote play between boards (docs/fleet.md)."""
