"""The phone-first table app (Flask)."""
