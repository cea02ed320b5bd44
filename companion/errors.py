"""The errors trickmate raises: bad notation is not the same mistake as a broken rule.

``NotationError`` means the text could not be read at all ("Xq" is no card);
``RuleError`` means the text was understood but breaks a rule of the game
("a pair cannot beat a triple").  Both keep the offending input in the message.
"""

from __future__ import annotations


class TrickmateError(Exception):
    """Base class of every error trickmate raises on purpose."""


class NotationError(TrickmateError, ValueError):
    """Text that does not spell a card, a rank or a combination.

    >>> str(NotationError("Xq"))
    "cannot read card 'Xq'"
    """

    def __init__(self, token: str, what: str = "card") -> None:
        self.token = token
        self.what = what
        super().__init__(f"cannot read {what} {token!r}")


class RuleError(TrickmateError):
    """An action or document that is readable but breaks a rule of the game."""


class UnknownGameError(TrickmateError, KeyError):
    """A game name that no registered game answers to."""

    def __init__(self, name: str) -> None:
        self.name = name
        super().__init__(name)

    def __str__(self) -> str:
        return f"unknown game {self.name!r}"
