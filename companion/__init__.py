"""The games trickmate serves: cards, combinations, rules and scoring."""

__version__ = "0.1.0"
