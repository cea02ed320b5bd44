"""The `trickmate` subcommands that belong to the rules core (referee, score)."""
