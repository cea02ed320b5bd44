"""Name words: a deck that prints its specials' names teaches them, and a name found in a pile
places its card."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card, tichu_deck
from tests.vision.conftest import paste_face, table
from tests.vision.test_calibrate import layout_photo
from vision.profile import DeckProfile, calibrate
from vision.scan import scan_image
from vision.synth.style import DeckStyle, families, random_style
from vision.words import NameWord, find_words, word_patch


@pytest.fixture(scope="module")
def named() -> tuple[DeckStyle, DeckProfile]:
    """A held-out deck that marks no corner of its specials but prints their names under
    their art, and the profile its layout photos teach."""
    style = random_style(np.random.default_rng(7), "tichu", families("tichu", held_out=True))
    style = dataclasses.replace(style, special_mark="none", special_word=True)
    deck = list(tichu_deck())
    profile = calibrate(
        [(layout_photo(style, deck[i : i + 14]), deck[i : i + 14]) for i in range(0, len(deck), 14)], "tichu"
    )
    return style, profile


def test_calibration_learns_the_names_printed_on_the_specials(named: tuple[DeckStyle, DeckProfile]) -> None:
    _, profile = named
    assert {"Phoenix", "Dog"} <= set(profile.words)
    phoenix, dog = profile.words["Phoenix"], profile.words["Dog"]
    # PHOENIX is a long word, DOG a short one; both lie under the art, the card's middle up
    # from them (against their down), a card about three words long.
    assert phoenix.aspect > 1.5 * dog.aspect
    assert phoenix.down < -0.8 and abs(phoenix.along) < 0.1
    assert 2.0 < phoenix.height < 5.0 and phoenix.width < phoenix.height


def test_a_special_whose_name_shows_in_a_pile_is_found_by_it(named: tuple[DeckStyle, DeckProfile]) -> None:
    # The Phoenix lies at an angle under the Jade 7, which hides its top half and its
    # outline: no mark, no index, no picture; only the name under its art shows.
    style, profile = named
    scene = table(560, 900, seed=5)
    paste_face(scene, style, Card.parse("Phoenix"), 140, (450, 300), 20.0)
    paste_face(scene, style, Card.parse("7j"), 140, (440, 225), 5.0)
    paste_face(scene, style, Card.parse("Ks"), 140, (150, 280), -10.0)
    found = scan_image(scene, "tichu", profile).cards
    assert sorted(str(c.card) for c in found) == ["7j", "Ks", "Phoenix"]
    phoenix = next(c for c in found if str(c.card) == "Phoenix")
    assert cv2.pointPolygonTest(phoenix.corners.reshape(-1, 1, 2), (450.0, 300.0), False) >= 0
    # Without the learnt words the same photo shows no Phoenix.
    unnamed = dataclasses.replace(profile, words={})
    assert sorted(str(c.card) for c in scan_image(scene, "tichu", unnamed).cards) == ["7j", "Ks"]


def test_learnt_words_survive_saving_the_profile(
    named: tuple[DeckStyle, DeckProfile], tmp_path: Path
) -> None:
    _, profile = named
    profile.save(tmp_path / "deck.npz")
    loaded = DeckProfile.load(tmp_path / "deck.npz")
    assert set(loaded.words) == set(profile.words)
    for name, word in profile.words.items():
        assert np.array_equal(loaded.words[name].patch, word.patch)
        assert dataclasses.replace(loaded.words[name], patch=word.patch) == word


def test_a_word_is_found_at_its_scale_and_either_way_up_and_places_its_card() -> None:
    # A drawn word, learnt at one size, found a quarter smaller and turned half round.
    def darkness_with_word(size: float, turned: bool) -> np.ndarray:
        canvas = np.zeros((300, 400), np.uint8)
        cv2.putText(
            canvas, "PHOENIX", (60, 160), cv2.FONT_HERSHEY_SIMPLEX, size, 255, max(1, round(2 * size))
        )
        if turned:
            canvas = canvas[::-1, ::-1].copy()
        return canvas.astype(np.float32) / 255.0

    from vision.detect import Ink
    from vision.words import ink_runs, run_frame

    def ink_of(darkness: np.ndarray) -> Ink:
        count, labels, stats, _ = cv2.connectedComponentsWithStats(
            (darkness > 0.5).astype(np.uint8), connectivity=8
        )
        return Ink(
            labels,
            stats[1:, :4].astype(np.int32),
            np.zeros((count - 1, 2), np.float32),
            np.zeros(count - 1, np.float32),
            np.zeros(count - 1, np.int32),
            darkness=darkness,
        )

    learnt = darkness_with_word(1.0, False)
    ((xs, ys),) = ink_runs(ink_of(learnt))
    centre, _, length, height = run_frame(xs, ys)
    down = np.array([0.0, 1.0])
    word = NameWord(
        word_patch(learnt, centre, down, length, length / height), length / height, 0.0, -1.5, 3.0, 2.0
    )
    smaller = darkness_with_word(0.75, True)
    (found,) = find_words(ink_of(smaller), {"Phoenix": word})
    assert found.name == "Phoenix" and found.score > 0.9
    # Turned half round, the letters' tops point down the screen, and so does the card's middle.
    ((xs, ys),) = ink_runs(ink_of(smaller))
    found_centre, _, found_length, _ = run_frame(xs, ys)
    middle = found.corners.mean(axis=0)
    assert abs(middle[0] - found_centre[0]) < 3 and middle[1] == pytest.approx(
        found_centre[1] + 1.5 * found_length, abs=3
    )
    # A run of ink of the same shape that spells something else is no PHOENIX.
    other = np.zeros((300, 400), np.uint8)
    cv2.putText(other, "MAHJONG", (60, 160), cv2.FONT_HERSHEY_SIMPLEX, 1.0, 255, 2)
    assert find_words(ink_of(other.astype(np.float32) / 255.0), {"Phoenix": word}) == []
