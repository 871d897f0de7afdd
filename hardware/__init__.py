"""Sensor and LED backends, each with a simulated twin, and board profiles."""
