"""Name words: a deck that prints its specials' names teaches them, and a name found in a pile
places its card."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.cards import Card, tichu_deck
from tests.vision.conftest import paste_face, table
from tests.vision.test_calibrate import layout_photo, run_calibrate
from vision import scan as scan_module
from vision.detect import Ink
from vision.profile import DeckProfile, ProfileError, calibrate
from vision.scan import _Candidate, _named_cards, scan_image
from vision.synth.style import DeckStyle, families, random_style
from vision.words import NameWord, find_words, ink_runs, run_frame, word_patch


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


def drawn_word(text: str, size: float, turned: bool = False) -> np.ndarray:
    """(300, 400) float32 darkness of ``text`` drawn with OpenCV's plain font."""
    canvas = np.zeros((300, 400), np.uint8)
    cv2.putText(canvas, text, (60, 160), cv2.FONT_HERSHEY_SIMPLEX, size, 255, max(1, round(2 * size)))
    if turned:
        canvas = canvas[::-1, ::-1].copy()
    return canvas.astype(np.float32) / 255.0


def ink_of(darkness: np.ndarray) -> Ink:
    """The ink components of a drawn ``darkness``, with their boxes."""
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


def learnt_phoenix() -> NameWord:
    """PHOENIX drawn upright at size 1, learnt on a card 3 words high and 2 wide whose middle
    lies 1.5 words above it."""
    learnt = drawn_word("PHOENIX", 1.0)
    ((xs, ys),) = ink_runs(ink_of(learnt))
    centre, _, length, height = run_frame(xs, ys)
    patch = word_patch(learnt, centre, np.array([0.0, 1.0]), length, length / height)
    return NameWord(patch, length / height, 0.0, -1.5, 3.0, 2.0)


def test_a_word_is_found_at_its_scale_and_either_way_up_and_places_its_card() -> None:
    # A drawn word, learnt at one size, found a quarter smaller and turned half round.
    word = learnt_phoenix()
    smaller = drawn_word("PHOENIX", 0.75, turned=True)
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
    assert find_words(ink_of(drawn_word("MAHJONG", 1.0)), {"Phoenix": word}) == []


def placed(
    card: str, corners: np.ndarray, index_center: tuple[float, float], outlined: bool = False
) -> _Candidate:
    center = corners.mean(axis=0)
    return _Candidate(
        Card.parse(card), 0.9, corners, center, 100.0, (0.0, 1.0), index_center, outlined=outlined
    )


def test_a_special_laid_from_its_mark_is_moved_onto_the_card_its_name_shows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    word = learnt_phoenix()
    profile = DeckProfile("tichu", words={"Phoenix": word})
    ink = ink_of(drawn_word("PHOENIX", 0.9))
    (found,) = find_words(ink, profile.words)
    elsewhere = np.array([[500, 500], [600, 500], [600, 640], [500, 640]], np.float32)
    near_a_corner = found.corners[0] * 0.9 + found.corners[2] * 0.1
    on_the_card = (float(near_a_corner[0]), float(near_a_corner[1]))
    # Laid from its mark the wrong way round: moved onto the name's card, no second Phoenix.
    wrong_way = placed("Phoenix", elsewhere.copy(), on_the_card)
    assert _named_cards(ink, profile, [wrong_way], "tichu") == []
    assert np.allclose(wrong_way.corners, found.corners)
    # A mark off the name's card, or a Phoenix outlined on its own, stays where it is.
    for kept in (
        placed("Phoenix", elsewhere.copy(), (550.0, 510.0)),
        placed("Phoenix", elsewhere.copy(), on_the_card, True),
    ):
        assert _named_cards(ink, profile, [kept], "tichu") == []
        assert np.allclose(kept.corners, elsewhere)
    # With nothing else found, the name alone places the card.
    (new,) = _named_cards(ink, profile, [], "tichu")
    assert str(new.card) == "Phoenix" and np.allclose(new.corners, found.corners)
    # A name matched less surely than a new card needs still moves a mark-placed card: the
    # mark and the name agree.
    monkeypatch.setattr(scan_module, "NAME_WORD_SCORE", found.score + 0.01)
    monkeypatch.setattr(scan_module, "NAME_WORD_MOVES", found.score - 0.01)
    assert _named_cards(ink, profile, [], "tichu") == []
    wrong_way = placed("Phoenix", elsewhere.copy(), on_the_card)
    assert _named_cards(ink, profile, [wrong_way], "tichu") == []
    assert np.allclose(wrong_way.corners, found.corners)


def test_the_calibrate_command_tells_which_names_it_learnt(tmp_path: Path) -> None:
    style = random_style(np.random.default_rng(7), "tichu", families("tichu", held_out=True))
    style = dataclasses.replace(style, special_mark="none", special_word=True)
    deck = list(tichu_deck())
    entries = []
    for number, start in enumerate(range(0, len(deck), 14)):
        cards = deck[start : start + 14]
        cv2.imwrite(
            str(tmp_path / f"row{number}.jpg"), layout_photo(style, cards), [cv2.IMWRITE_JPEG_QUALITY, 92]
        )
        entries.append({"file": f"row{number}.jpg", "cards": " ".join(str(c) for c in cards)})
    (tmp_path / "manifest.json").write_text(json.dumps({"photos": entries}))
    done = run_calibrate(tmp_path / "manifest.json", tmp_path / "d.npz")
    assert done.returncode == 0, done.stderr
    assert "names printed on: Dog, Dragon, Mahjong, Phoenix" in done.stderr
    assert sorted(DeckProfile.load(tmp_path / "d.npz").words) == ["Dog", "Dragon", "Mahjong", "Phoenix"]


def test_a_profile_whose_words_are_damaged_is_refused(
    named: tuple[DeckStyle, DeckProfile], tmp_path: Path
) -> None:
    _, profile = named
    word = profile.words["Phoenix"]
    for damaged in (
        {"Kj": word},  # a word for a card that prints its index
        {"Phoenix": dataclasses.replace(word, patch=word.patch[:5])},  # a patch cut short
    ):
        dataclasses.replace(profile, words=damaged).save(tmp_path / "deck.npz")
        with pytest.raises(ProfileError, match="damaged"):
            DeckProfile.load(tmp_path / "deck.npz")


def test_a_name_photographed_three_times_as_large_as_at_calibration_is_found(
    named: tuple[DeckStyle, DeckProfile],
) -> None:
    # Learnt from cards 110 pixels wide, the Phoenix's name on a card 320 wide, close to the
    # camera: sampled at a third of its pixels, its thin strokes must not fall between them.
    style, profile = named
    scene = table(1344, 1600, seed=5)
    paste_face(scene, style, Card.parse("Phoenix"), 320, (800.0, 672.0), 160.0)
    up = np.array([-np.sin(np.radians(160.0)), -np.cos(np.radians(160.0))])  # the face's top
    over = np.array([800.0, 672.0]) + up * 448 * 0.45
    paste_face(scene, style, Card.parse("7j"), 320, (float(over[0]), float(over[1])), 168.0)
    assert sorted(str(c.card) for c in scan_image(scene, "tichu", profile).cards) == ["7j", "Phoenix"]
