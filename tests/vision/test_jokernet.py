"""vision.jokernet: word patches in a word's own frame, and the shipped network reading
the JOKERs of scenes it never saw."""

from __future__ import annotations

import numpy as np
import pytest

from tests.vision.conftest import train_reader_module
from vision import read
from vision.jokernet import WORD_ACROSS, WORD_ALONG, joker_net, word_patches
from vision.read import JOKER_WORD_SURE
from vision.scan import scan_image
from vision.synth import SceneSpec, render_scene
from vision.synth.style import families


def test_a_word_read_from_its_other_end_is_its_patch_turned_half_round() -> None:
    rng = np.random.default_rng(4)
    darkness = (rng.random((90, 90)) > 0.7).astype(np.float32)
    centre = np.array([[45.0, 44.0]], np.float32)
    down = np.array([[0.6, 0.8]], np.float32)
    forward = word_patches(darkness, centre, down, np.array([50.0], np.float32))[0]
    backward = word_patches(darkness, centre, -down, np.array([50.0], np.float32))[0]
    assert forward.shape == (WORD_ALONG, WORD_ACROSS)
    # The word's centre lies at (WORD_ACROSS / 2, WORD_ALONG / 2): turned half round about it,
    # pixel (row, column) becomes (WORD_ALONG - row, WORD_ACROSS - column), the same sample.
    np.testing.assert_allclose(backward[1:, 1:], forward[:0:-1, :0:-1], atol=1e-4)
    assert not np.allclose(backward, forward, atol=0.1)


def test_the_shipped_network_reads_jokers_of_scenes_it_never_saw() -> None:
    train_reader = train_reader_module()
    # The network learnt from scenes of seed 41 (41 * 100000 + i): these are others.
    parts = [train_reader.joker_scene_words(seed) for seed in (6, 11, 12, 13)]
    patches = np.concatenate([p for p, _ in parts]).astype(np.float32) / 255.0
    marks = np.concatenate([m for _, m in parts])
    assert marks.sum() >= 5
    read = joker_net().probabilities(patches) >= JOKER_WORD_SURE
    assert read[marks == 1].mean() >= 0.8
    assert read[marks == 0].mean() <= 0.01


def test_a_fan_whose_jokers_letters_do_not_read_alone_is_read_whole(monkeypatch: pytest.MonkeyPatch) -> None:
    # A development-family fan: both jokers' letters are small and run together.
    rng = np.random.default_rng(7)
    spec = SceneSpec(
        width=1280,
        height=720,
        game="standard",
        families=families("standard", held_out=False),
        layout="fan",
        cards=("RJ", "BJ", "7h", "Qs", "3d"),
        distractors=0.0,
        effects=0.5,
        jpeg_quality=85,
    )
    image, labels = render_scene(rng, spec)
    truth = sorted(label.card for label in labels)
    assert sorted(str(card.card) for card in scan_image(image, "standard").cards) == truth
    # Without the network, the letters alone find neither joker (the trap is set).
    monkeypatch.setattr(read, "JOKER_WORD_SURE", 1.1)
    assert sorted(str(card.card) for card in scan_image(image, "standard").cards) == ["3d", "7h", "Qs"]
