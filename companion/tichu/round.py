"""One Tichu round as a state machine: verify an action, ask whether it can be done, do it.

Every rule of the round lives here, from the deal to the score (RULES.md, Tichu).  The
style is that of pokerkit: for each action, :meth:`TichuRound.verify` raises
:class:`~companion.errors.RuleError` with a sentence a player understands,
:meth:`TichuRound.can` answers yes or no, and :meth:`TichuRound.do` applies it and
returns a small frozen :class:`Event`.  The list of events is the round's history:
:meth:`TichuRound.replay` rebuilds the same state from it and :meth:`TichuRound.undo`
takes the last action back.

A round dealt from 14-card hands starts at the push:

>>> hands = [
...     "Mahjong 2j 3j 4j 5j 6s 7s 8s 9s 10s Js Qs Ks As",
...     "2s 3s 4s 5s 6p 7p 8p 9p 10p Jp Qp Kp Ap Dog",
...     "2p 3p 4p 5p 6t 7t 8t 9t 10t Jt Qt Kt At Phoenix",
...     "2t 3t 4t 5t 6j 7j 8j 9j 10j Jj Qj Kj Aj Dragon",
... ]
>>> game = TichuRound.from_hands(hands, start=Phase.PLAY)
>>> game.phase, game.turn
(<Phase.PLAY: 'play'>, 0)
>>> print(game.do(Play.of(0, "Mahjong", wish=7)))
seat 0 plays Mahjong and wishes for 7
>>> game.can(Play.of(1, "Dog"))
False
>>> game.verify(Play.of(1, "2s"))
Traceback (most recent call last):
...
companion.errors.RuleError: seat 1 cannot play 2s: the wish for 7 must be played (seat 1 holds 7p)
>>> print(game.do(Play.of(1, "7p")))
seat 1 plays 7p; the wish for 7 is fulfilled
>>> game.undo()
>>> game.wish, game.turn
(7, 1)

Seats are 0..3 in playing order; seats 0 and 2 are team ``"0"``, seats 1 and 3 team
``"1"``.  "Next" means the seat after in playing order (seat + 1 mod 4).

Where the rule documents leave the timing open, the round decides so:

- A trick is taken the moment the last pass it needs is made; a bomb must come before.
  After a bomb, in turn or out of it, the turn goes on from the bomber.
- The Dog's "trick" (the Dog alone) stays with its player, whose partner (or the next
  seat after the partner still in, possibly the Dog's player) leads next.
- When a third player goes out the round ends at once (nobody may bomb) and the trick
  is theirs, though a trick won with the Dragon is still given away first.  A double
  victory ends the round at once too; an open trick then stays on the table.
- A wish named with a straight that holds the wished rank stays open for the others.
- Plays and the wish obligation come from :mod:`companion.tichu.referee`, combinations
  from :mod:`companion.tichu.combinations` and the score from
  :func:`companion.tichu.scoring.score_round`: one set of rules for every part.
"""

from __future__ import annotations

import enum
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.cards import (
    DRAGON,
    MAHJONG,
    Card,
    card_points,
    duplicates,
    format_cards,
    parse_cards,
    parse_rank,
    rank_name,
    tichu_deck,
)
from companion.errors import RuleError
from companion.tichu.combinations import Combination, Kind, beats, classify
from companion.tichu.referee import legal_plays, why_not
from companion.tichu.scoring import score_round

SEATS: tuple[int, ...] = (0, 1, 2, 3)
FIRST_DEAL = 8
HAND_SIZE = 14
GRAND = "grand"
TICHU = "tichu"


class Phase(enum.Enum):
    """Where the round stands; each phase accepts its own actions."""

    GRAND_TICHU = "grand_tichu"  # 8 cards each: every seat calls or declines Grand Tichu
    PUSH = "push"  # 14 cards each: every seat pushes one card to each other seat
    PLAY = "play"  # tricks are played
    DRAGON_GIFT = "dragon_gift"  # a trick won with the Dragon waits to be given away
    OVER = "over"


def partner_of(seat: int) -> int:
    """The seat opposite.

    >>> partner_of(1)
    3
    """
    return (seat + 2) % 4


def team_of(seat: int) -> str:
    """Team key of a seat as in CONTRACTS section 3.

    >>> team_of(2), team_of(3)
    ('0', '1')
    """
    return str(seat % 2)


# --- actions -------------------------------------------------------------------------


@dataclass(frozen=True)
class CallGrandTichu:
    """Call Grand Tichu after seeing the first 8 cards."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} calls Grand Tichu"


@dataclass(frozen=True)
class DeclineGrandTichu:
    """Do not call Grand Tichu; when all four have decided, the other 6 cards are dealt."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} declines Grand Tichu"


@dataclass(frozen=True)
class CallTichu:
    """Call Tichu: with 14 cards dealt and before this seat's first played card."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} calls Tichu"


@dataclass(frozen=True)
class Push:
    """Give one card to each other seat; the cards change hands once all four have pushed."""

    seat: int
    to_next: Card
    to_partner: Card
    to_previous: Card

    @classmethod
    def to_seats(cls, seat: int, gifts: Mapping[int, Card | str]) -> Push:
        """Build a push from ``{receiving seat: card}``.

        >>> str(Push.to_seats(0, {1: "Kj", 2: "3s", 3: "4p"}))
        'seat 0 pushes Kj>1 3s>2 4p>3'
        """
        if sorted(gifts) != sorted(s for s in SEATS if s != seat):
            raise RuleError(f"seat {seat} must push to each other seat once, got seats {sorted(gifts)}")
        cards = {to: card if isinstance(card, Card) else Card.parse(card) for to, card in gifts.items()}
        return cls(seat, cards[(seat + 1) % 4], cards[partner_of(seat)], cards[(seat + 3) % 4])

    def gifts(self) -> dict[int, Card]:
        """Receiving seat -> card."""
        return {
            (self.seat + 1) % 4: self.to_next,
            partner_of(self.seat): self.to_partner,
            (self.seat + 3) % 4: self.to_previous,
        }

    def __str__(self) -> str:
        text = " ".join(f"{card}>{to}" for to, card in sorted(self.gifts().items()))
        return f"seat {self.seat} pushes {text}"


@dataclass(frozen=True)
class Play:
    """Play cards (a combination, a bomb or the Dog); ``wish`` is a rank 2..14 named with the Mahjong."""

    seat: int
    cards: tuple[Card, ...]
    wish: int | None = None

    def __post_init__(self) -> None:
        # Sorted, so that the same play is always the same value (in any card order).
        object.__setattr__(self, "cards", tuple(sorted(self.cards)))

    @classmethod
    def of(cls, seat: int, cards: str | Iterable[Card], wish: int | str | None = None) -> Play:
        """Build a play from card notation; ``wish`` may be a rank name ("7", "Q").

        >>> str(Play.of(0, "Mahjong 2j 3s 4p 5t", wish="Q"))
        'seat 0 plays Mahjong 2j 3s 4p 5t and wishes for Q'
        """
        parsed = parse_cards(cards) if isinstance(cards, str) else tuple(cards)
        if isinstance(wish, str):
            wish = parse_rank(wish)
        return cls(seat, parsed, wish)

    def __str__(self) -> str:
        text = f"seat {self.seat} plays {format_cards(self.cards)}"
        if self.wish is not None and self.wish in range(2, 15):
            text += f" and wishes for {rank_name(self.wish)}"
        return text


@dataclass(frozen=True)
class Pass:
    """Pass on a normal turn (a later turn in the same trick may still play)."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} passes"


@dataclass(frozen=True)
class GiveDragon:
    """Give the trick won with the Dragon to an opponent."""

    seat: int
    to: int

    def __str__(self) -> str:
        return f"seat {self.seat} gives the Dragon trick to seat {self.to}"


Action = CallGrandTichu | DeclineGrandTichu | CallTichu | Push | Play | Pass | GiveDragon


# --- events --------------------------------------------------------------------------


@dataclass(frozen=True)
class Event:
    """What one action did; the list of events is the round's history."""

    action: Action
    #: The reading of a play's cards (None for other actions).
    combination: Combination | None = None
    #: The seat that took a trick closed by this action (the Dragon's player before the gift).
    trick_taken_by: int | None = None
    #: Where a trick's cards went (the trick's winner, or the opponent given the Dragon trick).
    trick_given_to: int | None = None
    #: True when this action won a trick with the Dragon: a GiveDragon must follow.
    dragon_gift_due: bool = False
    #: The wish named with the Mahjong by this play.
    wish_named: int | None = None
    #: The wished rank this play fulfilled.
    wish_fulfilled: int | None = None
    went_out: int | None = None
    #: Set when the last player's 6 cards were dealt (the fourth Grand Tichu decision) or
    #: the pushed cards changed hands (the fourth push).
    dealt_rest: bool = False
    pushes_exchanged: bool = False
    round_over: bool = False

    def __str__(self) -> str:
        notes: list[str] = []
        if self.dealt_rest:
            notes.append("the other 6 cards are dealt")
        if self.pushes_exchanged:
            notes.append("the pushed cards change hands")
        if self.wish_fulfilled is not None:
            notes.append(f"the wish for {rank_name(self.wish_fulfilled)} is fulfilled")
        if self.went_out is not None:
            notes.append(f"seat {self.went_out} is out")
        if self.dragon_gift_due:
            notes.append(f"seat {self.trick_taken_by} takes the trick with the Dragon and must give it away")
        elif self.trick_taken_by is not None:
            notes.append(f"seat {self.trick_taken_by} takes the trick")
        if self.round_over:
            notes.append("the round is over")
        return "; ".join([str(self.action), *notes])


# --- the round -----------------------------------------------------------------------


@dataclass(frozen=True)
class Setup:
    """How a round began: the hands dealt and the phase they were dealt into.

    ``hands`` are the first 8 cards when ``rest`` (the other 6 each) is given; otherwise
    the 14-card hands, before the push (``start`` PUSH) or as held after it (``start``
    PLAY, when the push happened away from the engine).
    """

    hands: tuple[tuple[Card, ...], ...]
    rest: tuple[tuple[Card, ...], ...] | None = None
    start: Phase = Phase.GRAND_TICHU


@dataclass
class _Trick:
    plays: list[tuple[int, Combination]] = field(default_factory=list)
    passed: set[int] = field(default_factory=set)

    @property
    def top(self) -> Combination | None:
        return self.plays[-1][1] if self.plays else None

    @property
    def top_seat(self) -> int | None:
        return self.plays[-1][0] if self.plays else None

    def cards(self) -> list[Card]:
        return [card for _, combo in self.plays for card in combo.cards]


class TichuRound:
    """The state of one Tichu round; change it only through :meth:`do`."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        _check_setup(setup)
        self.events: list[Event] = []
        self.hands: list[set[Card]] = [set(hand) for hand in setup.hands]
        self.calls: dict[int, str] = {}
        self.grand_decided: set[int] = set()
        self.pushes: dict[int, Push] = {}
        self.played_a_card: set[int] = set()
        self.won: dict[int, list[Card]] = {seat: [] for seat in SEATS}
        self.out: list[int] = []
        self.wish: int | None = None
        self.trick = _Trick()
        #: The seat whose normal turn it is (None before play and when the round is over).
        self.turn: int | None = None
        self.dragon_giver: int | None = None
        self._dragon_cards: list[Card] = []
        self.last_trick_was_dog = False
        self.double_victory = False
        # (number of events, seat) -> wish fulfilment; the state changes only with events.
        self._wish_cache: dict[tuple[int, int], tuple[Card, ...] | None] = {}
        self.phase = setup.start
        if setup.start is Phase.PLAY:
            self.turn = self._mahjong_holder()

    # -- construction --------------------------------------------------------------

    @classmethod
    def from_hands(
        cls,
        hands: Sequence[str | Iterable[Card]],
        rest: Sequence[str | Iterable[Card]] | None = None,
        start: Phase | None = None,
    ) -> TichuRound:
        """A round from explicit hands (card notation or cards), see :class:`Setup`.

        ``start`` defaults to GRAND_TICHU with ``rest``, else PUSH.
        """

        def read(cards: str | Iterable[Card]) -> tuple[Card, ...]:
            return parse_cards(cards) if isinstance(cards, str) else tuple(cards)

        first = tuple(read(hand) for hand in hands)
        others = None if rest is None else tuple(read(hand) for hand in rest)
        if start is None:
            start = Phase.GRAND_TICHU if others is not None else Phase.PUSH
        return cls(Setup(first, others, start))

    @classmethod
    def deal(cls, deck_order: Sequence[Card]) -> TichuRound:
        """Deal a whole deck in this order, one card at a time round the table from seat 0.

        >>> game = TichuRound.deal(tichu_deck())
        >>> game.phase, len(game.hand(0)), game.hand(1)[:2]
        (<Phase.GRAND_TICHU: 'grand_tichu'>, 8, (Card.parse('2s'), Card.parse('3j')))
        """
        if sorted(deck_order) != sorted(tichu_deck()):
            raise RuleError("a deal needs the 56 cards of the Tichu deck, each once")
        first = tuple(tuple(deck_order[i] for i in range(seat, 32, 4)) for seat in SEATS)
        rest = tuple(tuple(deck_order[i] for i in range(32 + seat, 56, 4)) for seat in SEATS)
        return cls(Setup(first, rest, Phase.GRAND_TICHU))

    @classmethod
    def shuffled(cls, seed: int | None = None) -> TichuRound:
        """A round dealt from a deck shuffled with ``random.Random(seed)``."""
        deck = list(tichu_deck())
        random.Random(seed).shuffle(deck)
        return cls.deal(deck)

    @classmethod
    def replay(cls, setup: Setup, history: Iterable[Event | Action]) -> TichuRound:
        """The round after doing each action (or each event's action) in order."""
        game = cls(setup)
        for item in history:
            game.do(item.action if isinstance(item, Event) else item)
        return game

    def undo(self) -> None:
        """Take back the last action (by replaying all the others)."""
        if not self.events:
            raise RuleError("there is nothing to undo")
        previous = TichuRound.replay(self.setup, self.events[:-1])
        self.__dict__.update(previous.__dict__)

    @property
    def actions(self) -> list[Action]:
        return [event.action for event in self.events]

    # -- reading the state ---------------------------------------------------------

    def hand(self, seat: int) -> tuple[Card, ...]:
        """The cards ``seat`` holds, sorted."""
        return tuple(sorted(self.hands[seat]))

    def in_play(self) -> list[int]:
        """Seats that still hold cards."""
        return [seat for seat in SEATS if self.hands[seat] and seat not in self.out]

    @property
    def top(self) -> Combination | None:
        """The combination to beat, None when the next play is a lead."""
        return self.trick.top

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def _next_in(self, seat: int) -> int:
        """The first seat after ``seat`` that still holds cards (``seat`` itself if none other)."""
        for step in range(1, 5):
            candidate = (seat + step) % 4
            if candidate not in self.out:
                return candidate
        return seat

    def _mahjong_holder(self) -> int:
        return next(seat for seat in SEATS if MAHJONG in self.hands[seat])

    # -- verify / can / do ---------------------------------------------------------

    def can(self, action: Action) -> bool:
        """Whether ``action`` is allowed now."""
        try:
            self.verify(action)
        except RuleError:
            return False
        return True

    def verify(self, action: Action) -> None:
        """Raise :class:`RuleError` saying why ``action`` is refused; return if it is allowed."""
        seat = action.seat
        if seat not in SEATS:
            raise RuleError(f"{action}: there is no seat {seat}; seats are 0 to 3")
        if self.phase is Phase.OVER:
            raise RuleError(f"{action}: the round is over")
        if isinstance(action, CallGrandTichu | DeclineGrandTichu):
            self._verify_grand(action)
        elif isinstance(action, CallTichu):
            self._verify_tichu(action)
        elif isinstance(action, Push):
            self._verify_push(action)
        elif isinstance(action, GiveDragon):
            self._verify_give_dragon(action)
        elif isinstance(action, Play | Pass):
            if self.phase in (Phase.GRAND_TICHU, Phase.PUSH):
                raise RuleError(f"{action}: cards are played only after the push")
            if self.phase is Phase.DRAGON_GIFT:
                raise RuleError(
                    f"{action}: seat {self.dragon_giver} must first give the trick won with the Dragon "
                    "to an opponent"
                )
            if isinstance(action, Play):
                self._verify_play(action)
            else:
                self._verify_pass(action)
        else:  # pragma: no cover - the Action union is closed
            raise RuleError(f"unknown action {action!r}")

    def do(self, action: Action) -> Event:
        """Apply ``action`` (verified first) and return what happened."""
        self.verify(action)
        if isinstance(action, CallGrandTichu | DeclineGrandTichu):
            event = self._do_grand(action)
        elif isinstance(action, CallTichu):
            self.calls[action.seat] = TICHU
            event = Event(action)
        elif isinstance(action, Push):
            event = self._do_push(action)
        elif isinstance(action, GiveDragon):
            event = self._do_give_dragon(action)
        elif isinstance(action, Play):
            event = self._do_play(action)
        else:
            event = self._do_pass(action)
        self.events.append(event)
        return event

    # -- the deal: Grand Tichu, Tichu, push ------------------------------------------

    def _verify_grand(self, action: CallGrandTichu | DeclineGrandTichu) -> None:
        if self.phase is not Phase.GRAND_TICHU:
            raise RuleError(f"{action}: Grand Tichu is decided only after the first 8 cards, before the rest")
        if action.seat in self.grand_decided:
            said = "called" if self.calls.get(action.seat) == GRAND else "declined"
            raise RuleError(f"{action}: seat {action.seat} has already {said} Grand Tichu")

    def _do_grand(self, action: CallGrandTichu | DeclineGrandTichu) -> Event:
        self.grand_decided.add(action.seat)
        if isinstance(action, CallGrandTichu):
            self.calls[action.seat] = GRAND
        if len(self.grand_decided) < 4:
            return Event(action)
        assert self.setup.rest is not None
        for seat in SEATS:
            self.hands[seat] |= set(self.setup.rest[seat])
        self.phase = Phase.PUSH
        return Event(action, dealt_rest=True)

    def _verify_tichu(self, action: CallTichu) -> None:
        seat = action.seat
        if self.phase is Phase.GRAND_TICHU:
            raise RuleError(f"{action}: Tichu is called once all 14 cards are dealt (now: Grand Tichu)")
        if seat in self.calls:
            called = "Grand Tichu" if self.calls[seat] == GRAND else "Tichu"
            raise RuleError(f"{action}: seat {seat} has already called {called}")
        if seat in self.played_a_card:
            raise RuleError(f"{action}: Tichu must be called before the caller's first card is played")

    def _verify_push(self, action: Push) -> None:
        if self.phase is not Phase.PUSH:
            raise RuleError(f"{action}: the push happens once, after all 14 cards are dealt")
        if action.seat in self.pushes:
            raise RuleError(f"{action}: seat {action.seat} has already pushed")
        cards = list(action.gifts().values())
        if duplicates(cards):
            raise RuleError(f"{action}: push three different cards")
        missing = [card for card in cards if card not in self.hands[action.seat]]
        if missing:
            raise RuleError(f"{action}: seat {action.seat} does not hold {format_cards(missing)}")

    def _do_push(self, action: Push) -> Event:
        self.pushes[action.seat] = action
        self.hands[action.seat] -= set(action.gifts().values())
        if len(self.pushes) < 4:
            return Event(action)
        for push in self.pushes.values():
            for to, card in push.gifts().items():
                self.hands[to].add(card)
        self.phase = Phase.PLAY
        self.turn = self._mahjong_holder()
        return Event(action, pushes_exchanged=True)

    # -- play ---------------------------------------------------------------------

    def _reading(self, action: Play) -> Combination:
        """The combination ``action`` plays, or a RuleError saying why it is none or not held."""
        if not action.cards:
            raise RuleError(f"{action}: a play needs cards; to pass, pass")
        if len(set(action.cards)) != len(action.cards):
            raise RuleError(f"{action}: {format_cards(duplicates(action.cards))} is played twice")
        missing = [card for card in action.cards if card not in self.hands[action.seat]]
        if missing:
            raise RuleError(f"{action}: seat {action.seat} does not hold {format_cards(missing)}")
        combination = classify(action.cards, on=self.trick.top)
        if combination is None:
            raise RuleError(f"{action}: {format_cards(action.cards)} is not a combination")
        return combination

    def _verify_play(self, action: Play) -> None:
        seat = action.seat
        if seat in self.out:
            raise RuleError(f"{action}: seat {seat} is out and has no cards")
        combination = self._reading(action)
        if action.wish is not None:
            if MAHJONG not in action.cards:
                raise RuleError(f"{action}: only the player of the Mahjong names a wish")
            if action.wish not in range(2, 15):
                raise RuleError(f"{action}: a wish is a rank from 2 to A, got {action.wish}")
        top = self.trick.top
        is_bomb = combination.kind is Kind.BOMB
        if seat != self.turn:
            if top is None:
                if is_bomb and self.last_trick_was_dog:
                    raise RuleError(f"{action}: a bomb cannot be played on the Dog")
                raise RuleError(f"{action}: it is seat {self.turn}'s lead")
            if not is_bomb:
                raise RuleError(f"{action}: it is seat {self.turn}'s turn; out of turn only bombs are played")
        if combination.kind is Kind.DOG and top is not None:
            raise RuleError(f"{action}: the Dog can only be led")
        if top is not None and not beats(combination, top):
            raise RuleError(f"{action}: {why_not(combination, top)}")
        wish_ignored = self.wish is not None and not any(card.rank == self.wish for card in action.cards)
        if seat == self.turn and not is_bomb and wish_ignored:
            fulfilment = self.wish_fulfilment(seat)
            if fulfilment is not None:
                raise RuleError(
                    f"seat {seat} cannot play {format_cards(action.cards)}: "
                    f"{self._wish_reason(seat, fulfilment)}"
                )

    def _verify_pass(self, action: Pass) -> None:
        seat = action.seat
        if seat in self.out:
            raise RuleError(f"{action}: seat {seat} is out and has no cards")
        if seat != self.turn:
            raise RuleError(f"{action}: it is seat {self.turn}'s turn")
        if self.trick.top is None:
            raise RuleError(f"{action}: seat {seat} leads and cannot pass")
        if self.wish is not None:
            fulfilment = self.wish_fulfilment(seat)
            if fulfilment is not None:
                raise RuleError(f"seat {seat} cannot pass: {self._wish_reason(seat, fulfilment)}")

    def _wish_reason(self, seat: int, fulfilment: tuple[Card, ...]) -> str:
        assert self.wish is not None
        wished = format_cards(c for c in fulfilment if c.rank == self.wish)
        return f"the wish for {rank_name(self.wish)} must be played (seat {seat} holds {wished})"

    def wish_fulfilment(self, seat: int) -> tuple[Card, ...] | None:
        """Cards with which ``seat`` could fulfil the open wish on its turn now, or None.

        A combination containing a real card of the wished rank that would be legal here
        (the Phoenix alone never stands in); bombs count too.  The plays come from
        :func:`companion.tichu.referee.legal_plays`, so the referee and the round agree.
        """
        if self.wish is None:
            return None
        key = (len(self.events), seat)
        if key not in self._wish_cache:
            wish = self.wish
            # With the wish binding, the referee lists only plays holding it (and bombs).
            plays = legal_plays(self.hands[seat], self.trick.top, wish=wish)
            self._wish_cache[key] = next(
                (play.cards for play in plays if any(card.rank == wish for card in play.cards)), None
            )
        return self._wish_cache[key]

    def _do_play(self, action: Play) -> Event:
        seat = action.seat
        combination = self._reading(action)
        self.hands[seat] -= set(action.cards)
        self.played_a_card.add(seat)
        fulfilled = self.wish if any(card.rank == self.wish for card in action.cards) else None
        if fulfilled is not None:
            self.wish = None
        if MAHJONG in action.cards and action.wish is not None:
            self.wish = action.wish
        self.trick.plays.append((seat, combination))
        self.trick.passed = set()
        self.last_trick_was_dog = False
        went_out = None
        if not self.hands[seat]:
            self.out.append(seat)
            went_out = seat
        details: dict[str, Any] = {
            "combination": combination,
            "wish_named": action.wish if MAHJONG in action.cards else None,
            "wish_fulfilled": fulfilled,
            "went_out": went_out,
        }
        if len(self.out) == 2 and partner_of(self.out[0]) == self.out[1]:
            self.double_victory = True
            self._end()
            return Event(action, round_over=True, **details)
        if combination.kind is Kind.DOG:
            self.last_trick_was_dog = True
            return Event(action, **details, **self._close_trick(lead_from=partner_of(seat), dog=True))
        if len(self.out) == 3:
            return Event(action, **details, **self._close_trick())
        self.turn = self._next_in(seat)
        return Event(action, **details)

    def _do_pass(self, action: Pass) -> Event:
        self.trick.passed.add(action.seat)
        top_seat = self.trick.top_seat
        others = {seat for seat in self.in_play() if seat != top_seat}
        if others <= self.trick.passed:
            return Event(action, **self._close_trick())
        self.turn = self._next_in(action.seat)
        return Event(action)

    def _close_trick(self, lead_from: int | None = None, dog: bool = False) -> dict[str, Any]:
        """Give the trick to its top play's seat; returns the event details."""
        winner = self.trick.top_seat
        top = self.trick.top
        assert winner is not None and top is not None
        cards = self.trick.cards()
        self.trick = _Trick()
        if not dog and top.kind is Kind.SINGLE and top.cards == (DRAGON,):
            self.phase = Phase.DRAGON_GIFT
            self.dragon_giver = winner
            self._dragon_cards = cards
            self.turn = None
            return {"trick_taken_by": winner, "dragon_gift_due": True}
        self.won[winner] += cards
        over = self._lead_or_end(winner if lead_from is None else lead_from)
        return {"trick_taken_by": winner, "trick_given_to": winner, "round_over": over}

    def _lead_or_end(self, lead_from: int) -> bool:
        """Pass the lead (to ``lead_from`` or the next seat still in) or end the round."""
        if len(self.out) >= 3:
            self._end()
            return True
        self.turn = lead_from if lead_from not in self.out else self._next_in(lead_from)
        return False

    def _end(self) -> None:
        self.phase = Phase.OVER
        self.turn = None

    def _verify_give_dragon(self, action: GiveDragon) -> None:
        if self.phase is not Phase.DRAGON_GIFT:
            raise RuleError(f"{action}: no trick won with the Dragon is waiting to be given")
        if action.seat != self.dragon_giver:
            raise RuleError(f"{action}: seat {self.dragon_giver} won the Dragon trick and gives it")
        if action.to not in SEATS or action.to % 2 == action.seat % 2:
            raise RuleError(
                f"{action}: the Dragon trick goes to an opponent, seat "
                f"{(action.seat + 1) % 4} or {(action.seat + 3) % 4}"
            )

    def _do_give_dragon(self, action: GiveDragon) -> Event:
        self.won[action.to] += self._dragon_cards
        self._dragon_cards = []
        self.dragon_giver = None
        self.phase = Phase.PLAY
        over = self._lead_or_end(action.seat)
        return Event(action, trick_given_to=action.to, round_over=over)

    # -- legal actions (for players, tests and user interfaces) ------------------------

    def legal_actions(self) -> list[Action]:
        """Every action allowed now, but the pushes (2,184 per seat) and wishes (plays are wishless).

        Plays come from :func:`companion.tichu.referee.legal_plays`, each checked by :meth:`can`.
        """
        if self.phase is Phase.OVER:
            return []
        actions: list[Action] = []
        if self.phase is Phase.GRAND_TICHU:
            for seat in SEATS:
                actions += [CallGrandTichu(seat), DeclineGrandTichu(seat)]
        elif self.phase is Phase.DRAGON_GIFT:
            assert self.dragon_giver is not None
            actions += [GiveDragon(self.dragon_giver, (self.dragon_giver + step) % 4) for step in (1, 3)]
        elif self.phase is Phase.PLAY:
            top = self.trick.top
            for seat in self.in_play():
                on_turn = seat == self.turn
                for play in legal_plays(self.hands[seat], top, wish=self.wish, turn=on_turn):
                    actions.append(Play(seat, play.cards) if play.kind is not Kind.PASS else Pass(seat))
        actions += [CallTichu(seat) for seat in SEATS]
        return [action for action in actions if self.can(action)]

    # -- the end: round object and score ---------------------------------------------

    def round_object(self) -> dict[str, Any]:
        """The finished round as CONTRACTS section 3 writes it (for ``score_round``)."""
        if self.phase is not Phase.OVER:
            raise RuleError("the round is not over yet")
        obj: dict[str, Any] = {"calls": {str(seat): call for seat, call in sorted(self.calls.items())}}
        if self.double_victory:
            obj["out"] = list(self.out)
            return obj
        last = self.in_play()[0]
        obj["out"] = [*self.out, last]
        obj["tricks"] = {str(seat): format_cards(self.won[seat]) for seat in SEATS}
        obj["hand"] = format_cards(self.hands[last])
        return obj

    def card_points(self) -> dict[str, int]:
        """Each team's card points after the end-of-round hand-over (none at a double victory)."""
        if self.phase is not Phase.OVER:
            raise RuleError("the round is not over yet")
        points = {"0": 0, "1": 0}
        if self.double_victory:
            return points
        last = self.in_play()[0]
        for seat in SEATS:
            owner = self.out[0] if seat == last else seat
            points[team_of(owner)] += card_points(self.won[seat])
        points[team_of((last + 1) % 4)] += card_points(self.hands[last])
        return points

    def score(self) -> dict[str, int]:
        """The round's score per team, by :func:`companion.tichu.scoring.score_round`."""
        return score_round(self.round_object())


def _check_setup(setup: Setup) -> None:
    every = [card for hand in setup.hands for card in hand]
    if setup.rest is not None:
        every += [card for hand in setup.rest for card in hand]
    if len(setup.hands) != 4 or (setup.rest is not None and len(setup.rest) != 4):
        raise RuleError("a Tichu round has four hands, one per seat")
    if duplicates(every):
        raise RuleError(f"cards dealt twice: {format_cards(duplicates(every))}")
    if sorted(every) != sorted(tichu_deck()):
        missing = [card for card in tichu_deck() if card not in set(every)]
        raise RuleError(f"the hands must hold the 56 cards of the deck; missing {format_cards(missing)}")
    sizes = [len(hand) for hand in setup.hands]
    expected = FIRST_DEAL if setup.rest is not None else HAND_SIZE
    if any(size != expected for size in sizes):
        raise RuleError(f"each hand must hold {expected} cards, got {sizes}")
    rest_sizes = [len(hand) for hand in setup.rest or ()]
    if any(size != HAND_SIZE - FIRST_DEAL for size in rest_sizes):
        raise RuleError(f"the rest of the deal is {HAND_SIZE - FIRST_DEAL} cards each, got {rest_sizes}")
    if setup.rest is None and setup.start is Phase.GRAND_TICHU:
        raise RuleError("the Grand Tichu phase needs the first 8 cards and the rest")
    if setup.rest is not None and setup.start is not Phase.GRAND_TICHU:
        raise RuleError("with the rest of the deal given, the round starts at Grand Tichu")
