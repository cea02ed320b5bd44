"""The Tichu round state machine: verify / can / do, events, replay, undo and random play-outs."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cards import MAHJONG, Card, card_points, format_cards, parse_cards, tichu_deck
from companion.errors import RuleError
from companion.tichu.combinations import Kind, classify
from companion.tichu.round import (
    SEATS,
    Action,
    CallGrandTichu,
    CallTichu,
    DeclineGrandTichu,
    Event,
    GiveDragon,
    Pass,
    Phase,
    Play,
    Push,
    TichuRound,
)
from companion.tichu.scenario import parse_action, run_scenario
from companion.tichu.scoring import score_round

STRAIGHTS = """
hands:
0: Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
1: 2s 3s 4s 5s 6s 7j 8j 9j 10j Jj Qj Kj Aj Dog
2: 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap Phoenix
3: 2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At Dragon
"""


def snapshot(game: TichuRound) -> tuple[Any, ...]:
    """Everything that makes up the state of a round, comparable with ==."""
    return (
        game.phase,
        tuple(game.hand(seat) for seat in SEATS),
        tuple(format_cards(game.won[seat]) for seat in SEATS),
        tuple(game.out),
        game.wish,
        game.turn,
        tuple(sorted(game.calls.items())),
        tuple(game.trick.plays),
        tuple(sorted(game.trick.passed)),
        game.dragon_giver,
        tuple(sorted(game.pushes)),
        tuple(game.events),
    )


def random_playout(seed: int) -> TichuRound:
    """A whole round from a shuffled deck, every action chosen at random among the legal ones."""
    rng = random.Random(seed)
    game = TichuRound.shuffled(seed)
    while not game.is_over:
        if game.phase is Phase.PUSH:
            seat = rng.choice([seat for seat in SEATS if seat not in game.pushes])
            game.do(Push(seat, *rng.sample(game.hand(seat), 3)))
            continue
        actions = game.legal_actions()
        assert actions, f"no legal action in phase {game.phase} with seat {game.turn} to play"
        if rng.random() < 0.8:  # calls are rare at a real table
            actions = [a for a in actions if not isinstance(a, CallTichu)] or actions
        action = rng.choice(actions)
        if isinstance(action, Play) and MAHJONG in action.cards and rng.random() < 0.7:
            action = Play(action.seat, action.cards, wish=rng.randint(2, 14))
        game.do(action)
    return game


# --- verify / can / do ------------------------------------------------------------------


def test_verify_can_and_do_agree_and_a_refusal_changes_nothing() -> None:
    game = TichuRound.from_hands(
        [line.split(": ")[1] for line in STRAIGHTS.strip().splitlines()[1:]], start=Phase.PLAY
    )
    before = snapshot(game)
    refused: list[Action] = [
        Pass(0), Play.of(1, "Dog"), Play.of(0, "2s"), Play.of(0, "2j 4j"), GiveDragon(0, 1),
        Push.to_seats(0, {1: "2j", 2: "3j", 3: "4j"}), CallGrandTichu(0), Play.of(7, "2j"),
    ]
    for action in refused:
        assert not game.can(action)
        with pytest.raises(RuleError) as caught:
            game.do(action)
        assert str(action.seat) in str(caught.value)
        assert snapshot(game) == before
    allowed = Play.of(0, "Mahjong", wish="9")
    assert game.can(allowed)
    game.verify(allowed)
    event = game.do(allowed)
    assert event == Event(allowed, combination=classify([MAHJONG]), wish_named=9)
    assert game.wish == 9 and game.turn == 1 and game.events == [event]


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Play.of(0, "2s"), "seat 0 plays 2s: seat 0 does not hold 2s"),
        (Play.of(0, "2j 4j"), "seat 0 plays 2j 4j: 2j 4j is not a combination"),
        (Play.of(0, "2j 2j"), "2j is played twice"),
        (Play(0, ()), "a play needs cards"),
        (Play.of(3, "Dragon"), "seat 3 plays Dragon: it is seat 0's lead"),
        (GiveDragon(0, 1), "no trick won with the Dragon is waiting"),
        (CallGrandTichu(2), "Grand Tichu is decided only after the first 8 cards"),
        (Push.to_seats(1, {0: "2s", 2: "3s", 3: "4s"}), "the push happens once"),
    ],
)
def test_refusals_say_why_and_name_the_input(action: Any, message: str) -> None:
    game = TichuRound.from_hands(
        [line.split(": ")[1] for line in STRAIGHTS.strip().splitlines()[1:]], start=Phase.PLAY
    )
    with pytest.raises(RuleError, match=message):
        game.verify(action)


def test_the_push_exchanges_cards_only_when_all_four_have_pushed() -> None:
    game = TichuRound.from_hands([line.split(": ")[1] for line in STRAIGHTS.strip().splitlines()[1:]])
    assert game.phase is Phase.PUSH and game.turn is None
    first = game.do(Push.to_seats(0, {1: "As", 2: "Ks", 3: "Qs"}))
    assert not first.pushes_exchanged and len(game.hand(0)) == 11 and len(game.hand(1)) == 14
    with pytest.raises(RuleError, match="push three different cards"):
        game.verify(Push(1, Card.parse("2s"), Card.parse("2s"), Card.parse("3s")))
    game.do(Push.to_seats(1, {0: "Dog", 2: "2s", 3: "3s"}))
    game.do(Push.to_seats(2, {0: "Phoenix", 1: "2p", 3: "3p"}))
    last = game.do(Push.to_seats(3, {0: "Dragon", 1: "2t", 2: "3t"}))
    assert last.pushes_exchanged
    assert game.phase.value == "play"  # (a plain `is` confuses mypy's narrowing)
    assert format_cards(game.hand(0)) == "Dog Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Phoenix Dragon"
    assert set(game.hand(1)) >= set(parse_cards("As 2p 2t"))
    assert all(len(game.hand(seat)) == 14 for seat in SEATS)
    assert game.turn == 0  # the Mahjong's holder


def test_grand_tichu_then_the_rest_of_the_deal() -> None:
    game = TichuRound.deal(tichu_deck())
    assert all(len(game.hand(seat)) == 8 for seat in SEATS)
    with pytest.raises(RuleError, match="14 cards"):
        game.verify(CallTichu(0))
    game.do(CallGrandTichu(2))
    for seat in (0, 1):
        assert not game.do(DeclineGrandTichu(seat)).dealt_rest
    with pytest.raises(RuleError, match="already called Grand Tichu"):
        game.verify(DeclineGrandTichu(2))
    assert game.do(DeclineGrandTichu(3)).dealt_rest
    assert game.phase is Phase.PUSH and game.calls == {2: "grand"}
    assert all(len(game.hand(seat)) == 14 for seat in SEATS)
    game.do(CallTichu(0))
    with pytest.raises(RuleError, match="already called Tichu"):
        game.verify(CallTichu(0))


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["2j"] * 4, "cards dealt twice"),
        ([format_cards(tichu_deck()[:14])] * 3 + ["Dragon"], "cards dealt twice"),
    ],
)
def test_a_deal_must_be_the_whole_deck(hands: list[str], message: str) -> None:
    with pytest.raises(RuleError, match=message):
        TichuRound.from_hands(hands)


def test_the_rest_of_the_deal_is_six_cards_each() -> None:
    deck = list(tichu_deck())
    first = [deck[8 * seat : 8 * seat + 8] for seat in SEATS]
    with pytest.raises(RuleError, match=r"6 cards each, got \[5, 7, 6, 6\]"):
        TichuRound.from_hands(first, [deck[32:37], deck[37:44], deck[44:50], deck[50:]])


def test_a_deal_needs_fourteen_cards_each() -> None:
    deck = list(tichu_deck())
    with pytest.raises(RuleError, match=r"each hand must hold 14 cards, got \[13, 15, 14, 14\]"):
        TichuRound.from_hands([deck[:13], deck[13:28], deck[28:42], deck[42:]])
    with pytest.raises(RuleError, match="56 cards"):
        TichuRound.deal(deck[:55])


# --- rulings -----------------------------------------------------------------------------

WISH_DEAL = """
hands:
0: Mahjong 2j 3s 4p 5t 6j 7p 9j 10s Jt Qj Aj As Dog
1: 2s 3p 4s 5s 6p 7t 8j 9p 10j Js Qs Ap At Phoenix
2: 3j 4j 5j 6s 7s 8s 9s 10p Jp Qp Kj Ks Kp Kt
3: 2p 2t 3t 4t 5p 6t 7j 8p 8t 9t 10t Jj Qt Dragon
start: play
0 plays Mahjong wish 8
"""


def test_a_bomb_out_of_turn_need_not_fulfil_the_wish_but_the_bomber_leads_with_it() -> None:
    # The rule book's FAQ: seat 2 bombs K K K K before its turn although it holds an 8;
    # when it then leads, the wish binds.
    game = run_scenario(WISH_DEAL + """
2 bombs Kj Ks Kp Kt
expect: turn 3
3 passes   # 8p 8t cannot beat a bomb
0 passes
1 passes   # nor can 8j
expect: trick to 2
expect: wish 8
expect error "the wish for 8 must be played (seat 2 holds 8s)": 2 plays 9s
expect error "leads and cannot pass": 2 passes
2 plays 3j 4j 5j 6s 7s 8s
expect: wish none
""")
    assert game.events[-1].wish_fulfilled == 8


def test_the_wish_binds_the_next_player_who_can_play_it() -> None:
    game = run_scenario(WISH_DEAL + """
expect error "the wish for 8 must be played (seat 1 holds 8j)": 1 plays 9p
expect error "the wish for 8 must be played": 1 passes
expect error "the wish for 8 must be played": 1 plays Phoenix
1 plays 8j
expect: wish none
""")
    assert game.turn == 2


def test_a_single_cannot_fulfil_on_a_higher_single_but_a_bomb_must() -> None:
    # Seat 2 holds four 5s: a 5 cannot beat the 8, the bomb can, so it must bomb (seed 003).
    game = run_scenario("""
hands:
0: Mahjong 2j 3s 4p 6t 7j 9s 10p Jt Qj Ks Aj Dog Phoenix
1: 8j 2s 3p 4t 6j 7s 9p 10t Jj Qs Kp As Dragon 8s
2: 5j 5s 5p 5t 2p 3t 4j 6s 7p 9t 10j Js Qp Kt
3: 2t 3j 4s 6p 7t 8p 8t 9j 10s Jp Qt Kj Ap At
start: play
0 plays Mahjong wish 5
1 plays 8j
expect error "the wish for 5 must be played (seat 2 holds 5j 5s 5p 5t)": 2 passes
expect error "the wish for 5 must be played": 2 plays 9t
2 bombs 5j 5s 5p 5t
expect: wish none
""")
    assert game.top is not None and game.top.kind is Kind.BOMB


def test_the_dog_returns_to_its_player_when_partner_and_next_are_out() -> None:
    # Seed 003: A plays the Dog, C (the partner) and D are out: A leads again.
    seat2 = parse_cards("Dragon 2j 3s 4p 5j 6s 7p 8j 9s 10p Jj Qs Kp Aj")
    seat3 = parse_cards("Phoenix 2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At")
    left = [card for card in tichu_deck() if card not in seat2 + seat3 and not card.is_special]
    seat0: list[Card] = [MAHJONG, Card.parse("Dog")]
    seat1: list[Card] = []
    for card in left:
        taken = any(c.rank == card.rank for c in seat0)
        (seat1 if taken or card.rank == 14 else seat0).append(card)
    game = TichuRound.from_hands([seat0, seat1, seat2, seat3], start=Phase.PLAY)
    for action in ["0 plays Mahjong", "1 passes", "2 plays Dragon", "3 passes", "0 passes", "1 passes",
                   "2 gives dragon to 1", "2 plays 2j 3s 4p 5j 6s 7p 8j 9s 10p Jj Qs Kp Aj",
                   "3 bombs 2t 3t 4t 5t 6t 7t 8t 9t 10t Jt Qt Kt At", "0 passes", "1 passes",
                   "3 plays Phoenix", "0 passes", "1 passes"]:
        game.do(parse_action(action))
    assert game.out == [2, 3] and game.turn == 0 and game.top is None
    event = game.do(Play.of(0, "Dog"))
    assert event.trick_taken_by == 0 and game.turn == 0 and game.won[0] == [Card.parse("Dog")]


def test_a_wish_named_with_a_straight_holding_that_rank_stays_open() -> None:
    game = run_scenario(STRAIGHTS + """
start: play
0 plays Mahjong 2j 3j 4j 5j wish 3
expect: wish 3
expect error "the wish for 3 must be played (seat 1 holds 3s)": 1 passes
""")
    assert game.events[-1].wish_named == 3 and game.events[-1].wish_fulfilled is None


def test_the_phoenix_never_beats_the_dragon_and_a_dog_is_only_led() -> None:
    game = run_scenario(STRAIGHTS + """
start: play
0 plays Mahjong
1 passes
2 passes
3 plays Dragon
0 passes
expect error "the Dog can only be led": 1 plays Dog
1 passes
expect error "nothing beats the Dragon but a bomb": 2 plays Phoenix
""")
    assert game.turn == 2


def test_a_player_who_is_out_is_skipped() -> None:
    game = run_scenario(STRAIGHTS + """
start: play
0 plays Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
1 bombs 2s 3s 4s 5s 6s  # a straight flush: a bomb
2 bombs 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap
3 passes
expect: turn 1
expect error "seat 0 is out": 0 passes
""")
    assert game.out == [0] and game.turn == 1


# --- events, replay, undo ----------------------------------------------------------------


def test_events_read_as_sentences() -> None:
    game = run_scenario(STRAIGHTS + """
start: play
0 plays Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As
1 passes
2 bombs 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap
3 passes
1 passes
""")
    assert [str(event) for event in game.events] == [
        "seat 0 plays Mahjong 2j 3j 4j 5j 6j 7s 8s 9s 10s Js Qs Ks As; seat 0 is out",
        "seat 1 passes",
        "seat 2 plays 2p 3p 4p 5p 6p 7p 8p 9p 10p Jp Qp Kp Ap",
        "seat 3 passes",
        "seat 1 passes; seat 2 takes the trick",
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_from_events_or_actions_gives_the_same_state(seed: int) -> None:
    game = random_playout(seed)
    assert snapshot(TichuRound.replay(game.setup, game.events)) == snapshot(game)
    assert snapshot(TichuRound.replay(game.setup, game.actions)) == snapshot(game)


def test_undo_walks_back_through_every_state() -> None:
    game = random_playout(7)
    states = [snapshot(TichuRound.replay(game.setup, game.events[:n])) for n in range(len(game.events) + 1)]
    for expected in reversed(states[:-1]):
        game.undo()
        assert snapshot(game) == expected
    with pytest.raises(RuleError, match="nothing to undo"):
        game.undo()


# --- random play-outs --------------------------------------------------------------------


@settings(max_examples=40)
@given(st.integers(min_value=0, max_value=2**32))
def test_random_rounds_end_with_every_card_and_point_accounted_for(seed: int) -> None:
    game = random_playout(seed)
    held = [card for seat in SEATS for card in game.hand(seat)]
    won = [card for seat in SEATS for card in game.won[seat]]
    # Every card once, nowhere else (a double victory may leave a trick on the table).
    on_table = game.trick.cards()
    assert not on_table or game.double_victory
    assert Counter(held + won + on_table) == Counter(tichu_deck())
    assert sorted(game.out) == sorted(set(game.out))
    still_in = [seat for seat in SEATS if game.hand(seat)]
    if game.double_victory:
        assert len(game.out) == 2 and game.out[0] % 2 == game.out[1] % 2
        assert sorted(still_in) == sorted(set(SEATS) - set(game.out))
        expected = {str(game.out[0] % 2): 200, str(game.out[0] % 2 ^ 1): 0}
    else:
        assert len(game.out) == 3 and len(still_in) == 1
        points = game.card_points()
        assert points["0"] + points["1"] == 100
        assert card_points(won) + card_points(held) == 100
        expected = dict(points)
    for seat, call in game.calls.items():
        value = {"tichu": 100, "grand": 200}[call]
        expected[str(seat % 2)] += value if game.out[0] == seat else -value
    assert game.score() == score_round(game.round_object()) == expected


@pytest.mark.parametrize("seed", [11, 12])
def test_legal_actions_are_exactly_the_plays_the_round_allows(seed: int) -> None:
    # The round's verify and the referee's list of plays are two views of the same rules:
    # along a random round, every play of a hand that verify allows is listed, and back.
    game = random_playout(seed)
    for n in range(0, len(game.events), 3):
        state = TichuRound.replay(game.setup, game.events[:n])
        if state.phase is not Phase.PLAY:
            continue
        listed = {action for action in state.legal_actions() if isinstance(action, Play)}
        for seat in state.in_play():
            hand = state.hand(seat)
            singles_and_pairs = [(card,) for card in hand] + [
                (a, b) for i, a in enumerate(hand) for b in hand[i + 1 :] if classify((a, b))
            ]
            for cards in singles_and_pairs:
                play = Play(seat, cards)
                assert state.can(play) == (play in listed), (str(play), state.top)
