"""The glyph reader's training data (scripts/train_reader.py): what it labels "other" in a
scene must never be an index glyph, and a rank drawn with a scrap of frame line keeps the
line joined to it, as the scanner meets it."""

from __future__ import annotations

import cv2
import numpy as np

from tests.vision.conftest import train_reader_module
from vision.detect import ink_components, paper_regions, working_image
from vision.synth import SceneSpec, render_scene
from vision.synth.style import families


def test_scraps_lie_outside_every_index_and_away_from_the_middle_of_every_card() -> None:
    train_reader = train_reader_module()
    spec = SceneSpec(
        width=1280, height=720, game="standard", families=families("standard", held_out=False), layout="apart"
    )
    image, labels = render_scene(np.random.default_rng(5), spec)
    small, scale = working_image(image)
    ink = ink_components(small, paper_regions(small))
    scraps = train_reader.scrap_components(ink, labels, scale)
    assert scraps, "a scene of lone cards has frame lines and edges to learn as other ink"
    for label in labels:
        corners = np.asarray(label.corners, np.float32) / scale
        for polygon in label.index_corners:
            outline = (np.asarray(polygon, np.float32) / scale).reshape(-1, 1, 2)
            inside = {
                k
                for k, (x, y) in enumerate(ink.centers)
                if cv2.pointPolygonTest(outline, (float(x), float(y)), False) >= 0
            }
            assert not inside & scraps
        # The middle of a card (pips, pictures) is never "other".
        middle = corners.mean(axis=0)
        box = (corners - middle) * 0.5 + middle
        for k in scraps:
            x, y = ink.centers[k]
            assert cv2.pointPolygonTest(box.reshape(-1, 1, 2), (float(x), float(y)), False) < 0


def test_a_frame_scrap_touches_the_rank_it_is_drawn_with() -> None:
    train_reader = train_reader_module()
    rank = np.zeros((90, 70), np.uint8)
    cv2.putText(rank, "7", (12, 75), cv2.FONT_HERSHEY_SIMPLEX, 2.4, 255, 6)
    for seed in range(8):
        scrapped = train_reader.with_frame_scrap(np.random.default_rng(seed), rank)
        count, _ = cv2.connectedComponents((scrapped > 60).astype(np.uint8))
        assert count == 2  # the background and one component: the rank with its line
        assert int((scrapped > 60).sum()) > int((rank > 60).sum())


def test_an_occlusion_hides_a_strip_from_one_side_of_the_glyph_only() -> None:
    train_reader = train_reader_module()
    rank = np.zeros((90, 70), np.uint8)
    cv2.putText(rank, "8", (10, 75), cv2.FONT_HERSHEY_SIMPLEX, 2.4, 255, 6)
    ink = rank > 60
    drawn = rank.copy()
    for seed in range(8):
        hidden = train_reader.with_occlusion(np.random.default_rng(seed), rank) > 60
        gone = ink & ~hidden
        assert not (hidden & ~ink).any() and gone.any()  # nothing added, something hidden
        assert hidden.sum() >= 0.5 * ink.sum()
        # What is gone lies beyond a straight edge: the hidden ink's and the kept ink's
        # projections on some direction do not overlap.
        separated = False
        for angle in np.linspace(0.0, 2.0 * np.pi, 360, endpoint=False):
            gy, gx = np.nonzero(gone)
            ky, kx = np.nonzero(hidden)
            direction = np.array([np.cos(angle), np.sin(angle)])
            if (np.c_[gx, gy] @ direction).min() >= (np.c_[kx, ky] @ direction).max() - 1.0:
                separated = True
                break
        assert separated, seed
    assert np.array_equal(rank, drawn)  # the drawn rank itself is untouched


def test_scene_negatives_are_learnt_as_other_only_when_asked() -> None:
    train_reader = train_reader_module()
    other = train_reader.CLASS_INDEX["other"]
    _, plain = train_reader.scene_glyphs(5)
    _, with_negatives = train_reader.scene_glyphs(5, negatives=True)
    assert plain and other not in plain
    assert with_negatives[: len(plain)] == plain  # the index glyphs, then the "other" ink
    assert with_negatives[len(plain) :] and set(with_negatives[len(plain) :]) == {other}


def test_scene_glyphs_in_context_are_each_seen_twice_with_their_window() -> None:
    from vision.read import CLASS_INDEX, CONTEXT_LENGTH

    train_reader = train_reader_module()
    features, classes = train_reader.scene_glyphs(900_000, context=True)
    x, y = np.stack(features), np.asarray(classes)
    assert x.shape == (len(y), CONTEXT_LENGTH) and len(y) >= 20
    # Each glyph twice, the same class: as proposed, then turned and its window zoomed.
    np.testing.assert_array_equal(y[0::2], y[1::2])
    assert not np.allclose(x[0::2], x[1::2])
    # Index glyphs (ranks and suits) and surely-no-index ink ("other") both.
    assert (y == CLASS_INDEX["other"]).any() and (y != CLASS_INDEX["other"]).sum() >= 10


def test_the_glyph_network_learns_upright_bars_from_level_ones_from_pixel_rows() -> None:
    train_reader = train_reader_module()
    rng = np.random.default_rng(6)
    squares = np.zeros((400, 32, 32), np.float32)
    labels = np.zeros(400, np.int64)
    for i in range(400):
        at = int(rng.integers(8, 24))
        if i % 2:
            squares[i, 4:28, at - 2 : at + 2] = 1.0
        else:
            squares[i, at - 2 : at + 2, 4:28] = 1.0
        labels[i] = i % 2
    # Every bar's aspect ratio told as 1: only the pixels tell them apart.
    sides = np.full(400, 24.0, np.float32)
    rows = train_reader.pixels_of(squares, sides, sides)
    assert rows.shape == (400, 32 * 32 + 1) and not rows[:, -1].any()
    net = train_reader.train_glyphnet(rows, labels, np.random.default_rng(7), 12)
    read = net.probabilities(squares, rows[:, -1]).argmax(axis=1)
    assert (read == labels).mean() > 0.95


def test_index_patches_of_a_scene_name_its_cards_and_see_each_index_twice() -> None:
    from companion.cards import Card, Deck

    train_reader = train_reader_module()
    seed = 2
    patches, ratios, ranks, suits = train_reader.scene_patches(seed)
    _, game, _, labels, _ = train_reader.training_scene(seed)
    deck = Deck.TICHU if game == "tichu" else Deck.STANDARD
    shown = {(Card.parse(label.card, deck).rank, Card.parse(label.card, deck).suit) for label in labels}
    other = (ranks == train_reader.RANK_OTHER) & (suits == train_reader.SUIT_OTHER)
    assert patches.shape == (len(ranks), 40, 32) and patches.dtype == np.uint8 and len(ratios) == len(ranks)
    assert other.any() and (~other).sum() >= 4
    # Every index patch names a card of the scene (rank 2 is class 1), and none is half other.
    for rank, suit in zip(ranks[~other], suits[~other], strict=True):
        assert rank != train_reader.RANK_OTHER and suit != train_reader.SUIT_OTHER
        assert any(
            r == rank + 1 and s is not None and s.name.lower() == train_reader.SUIT_OUT[suit]
            for r, s in shown
        )
    # Each index twice: as proposed, then turned, zoomed and shifted a little (the copies last).
    count = int((~other).sum()) // 2
    np.testing.assert_array_equal(ranks[~other][:count], ranks[-count:])
    assert not np.array_equal(patches[~other][:count], patches[-count:])


def test_drawn_indices_put_the_rank_above_its_suit_and_are_other_a_quarter_of_the_time() -> None:
    train_reader = train_reader_module()
    patches, ratios, ranks, suits = train_reader.drawn_patches(400, 3)
    other = ranks == train_reader.RANK_OTHER
    assert 0.18 < other.mean() < 0.32
    np.testing.assert_array_equal(other, suits == train_reader.SUIT_OTHER)
    assert np.isfinite(ratios).all()
    # The rank (around the origin, a third of the way down the patch) is inked in index patches.
    rows = patches[~other].astype(np.float32).mean(axis=(0, 2))
    assert rows[8:18].mean() > 2 * rows[:4].mean()


def test_the_index_networks_are_trained_at_the_recipes_widths_and_shipped_so() -> None:
    from vision.indexnet import index_net

    train_reader = train_reader_module()
    patches, ratios, ranks, suits = train_reader.drawn_patches(200, 5)
    net = train_reader.train_indexnet(patches, ratios, ranks, suits, np.random.default_rng(0), 1)
    widths = [net.params[f"w{i}"].shape[1] for i in range(3)]
    assert widths == list(train_reader.INDEX_CHANNELS)
    assert net.params["f1"].shape[1] == train_reader.INDEX_HIDDEN
    for member in index_net().members:
        assert [member.params[f"w{i}"].shape[1] for i in range(3)] == widths
        assert member.params["f1"].shape == net.params["f1"].shape


def test_joker_scene_words_mark_jokers_read_from_their_j_only() -> None:
    train_reader = train_reader_module()
    patches, marks = train_reader.joker_scene_words(6)
    assert patches.shape == (len(marks), 48, 16) and patches.dtype == np.uint8
    assert set(marks.tolist()) == {0, 1}
    # Every run is read from both ends in turn: JOKER from one end at most (J first).
    assert (marks.reshape(-1, 2).sum(axis=1) <= 1).all()
    # A JOKER down the patch has ink in its middle columns most of the way down.
    words = patches[marks == 1].astype(np.float32)
    rows = words[:, :, 6:10].mean(axis=(0, 2))
    assert rows[12:36].min() > 2 * rows[:3].mean()
