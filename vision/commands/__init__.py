"""The `trickmate scan` and `trickmate calibrate` subcommands."""
