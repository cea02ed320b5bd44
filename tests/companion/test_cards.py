"""Card notation: parse, format, round trip, decks and points."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.cards import (
    Card,
    Deck,
    Special,
    Suit,
    card_points,
    format_cards,
    parse_cards,
    standard_deck,
    tichu_deck,
)
from companion.errors import NotationError


@pytest.mark.parametrize(
    ("token", "canonical"),
    [
        ("5j", "5j"),
        ("10p", "10p"),
        ("Tp", "10p"),
        ("tp", "10p"),
        ("KS", "Ks"),
        ("at", "At"),
        ("Jj", "Jj"),
        ("mahjong", "Mahjong"),
        ("Mj", "Mahjong"),
        ("1", "Mahjong"),
        ("DOG", "Dog"),
        ("dg", "Dog"),
        ("Ph", "Phoenix"),
        ("dr", "Dragon"),
    ],
)
def test_tichu_tokens_read_to_their_canonical_spelling(token: str, canonical: str) -> None:
    assert str(Card.parse(token)) == canonical


@pytest.mark.parametrize(
    ("token", "canonical"),
    [("Kh", "Kh"), ("ks", "Ks"), ("10D", "10d"), ("tc", "10c"), ("bj", "BJ"), ("Rj", "RJ")],
)
def test_standard_tokens_read_to_their_canonical_spelling(token: str, canonical: str) -> None:
    assert str(Card.parse(token, Deck.STANDARD)) == canonical


def test_s_is_sword_in_tichu_and_spades_in_a_standard_deck() -> None:
    assert Card.parse("Ks").suit is Suit.SWORD
    assert Card.parse("Ks", Deck.STANDARD).suit is Suit.SPADES


@pytest.mark.parametrize("token", ["Xq", "11j", "1j", "Kx", "j", "BJ", "Kh", "Dragons", "0s"])
def test_bad_tichu_tokens_are_named_in_the_error(token: str) -> None:
    with pytest.raises(NotationError) as error:
        parse_cards(f"5j {token} 6s")
    assert error.value.token == token
    assert repr(token) in str(error.value)


@pytest.mark.parametrize("token", ["Mahjong", "Dog", "1", "Kj", "Phoenix"])
def test_tichu_cards_are_not_standard_cards(token: str) -> None:
    with pytest.raises(NotationError):
        Card.parse(token, Deck.STANDARD)


def test_separators_are_spaces_or_commas() -> None:
    assert parse_cards("5j,6s ,  7p\t8t") == parse_cards("5j 6s 7p 8t")


def test_tichu_deck_has_56_distinct_cards_and_100_points() -> None:
    deck = tichu_deck()
    assert len(deck) == len(set(deck)) == 56
    assert card_points(deck) == 100
    assert {c.special for c in deck if c.is_special} == {
        Special.MAHJONG,
        Special.DOG,
        Special.PHOENIX,
        Special.DRAGON,
    }


def test_two_standard_decks_write_identical_cards_twice() -> None:
    deck = standard_deck(2)
    assert len(deck) == 108
    assert deck.count(Card.parse("Kh", Deck.STANDARD)) == 2
    assert format_cards(parse_cards("Kh Kh", Deck.STANDARD)) == "Kh Kh"


def test_sorting_puts_specials_where_they_play() -> None:
    cards = parse_cards("Dragon Aj 2s Dog Phoenix Mahjong 10t")
    assert format_cards(cards) == "Dog Mahjong 2s 10t Aj Phoenix Dragon"


def test_cards_are_immutable_and_hashable() -> None:
    card = Card.parse("Kj")
    with pytest.raises(AttributeError):
        card.rank = 3  # type: ignore[misc]
    assert {card, Card.parse("kj")} == {card}


def test_a_card_is_either_ordinary_or_special() -> None:
    with pytest.raises(ValueError):
        Card(rank=5)
    with pytest.raises(ValueError):
        Card(rank=5, suit=Suit.JADE, special=Special.DOG)


@given(st.lists(st.sampled_from(tichu_deck()), unique=True))
def test_tichu_text_round_trips(cards: list[Card]) -> None:
    assert sorted(parse_cards(format_cards(cards))) == sorted(cards)


@given(st.lists(st.sampled_from(standard_deck(2))))
def test_standard_text_round_trips(cards: list[Card]) -> None:
    text = format_cards(cards)
    assert sorted(parse_cards(text, Deck.STANDARD)) == sorted(cards)
    assert format_cards(parse_cards(text.lower(), Deck.STANDARD)) == text
