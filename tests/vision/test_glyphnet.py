"""vision.glyphnet: the convolutional glyph reader's gradients, training and shipped weights."""

from __future__ import annotations

import io

import cv2
import numpy as np
import pytest

from vision.features import GLYPH_SIZE, upright_glyph
from vision.glyphnet import READ_BATCH, GlyphNet, backward, forward, glyph_net, initial_params, softmax
from vision.read import CLASS_INDEX, CLASSES


def _loss(
    params: dict[str, np.ndarray], squares: np.ndarray, aspects: np.ndarray, labels: np.ndarray
) -> float:
    logits = forward(params, squares, aspects)[0].astype(np.float64)
    # In float64 (softmax() answers in float32): finite differences need the digits.
    shifted = logits - logits.max(axis=1, keepdims=True)
    log_p = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    return float(-log_p[np.arange(len(labels)), labels].mean())


@pytest.mark.parametrize("name", ["w0", "w1", "w2", "f1", "f2", "g2"])
def test_backward_gives_the_gradient_of_the_loss(name: str) -> None:
    rng = np.random.default_rng(3)
    params = {key: value.astype(np.float64) for key, value in initial_params(rng, 5).items()}
    squares = rng.random((4, GLYPH_SIZE, GLYPH_SIZE)).astype(np.float32)
    aspects = rng.normal(size=4).astype(np.float32)
    labels = np.array([0, 1, 4, 2])
    logits, cache = forward(params, squares, aspects)
    d_logits = softmax(logits.astype(np.float64)).astype(np.float64)
    d_logits[np.arange(4), labels] -= 1
    grads = backward(params, cache, d_logits / 4)
    for _ in range(3):
        index = tuple(int(rng.integers(0, side)) for side in params[name].shape)
        saved = params[name][index]
        params[name][index] = saved + 1e-4
        above = _loss(params, squares, aspects, labels)
        params[name][index] = saved - 1e-4
        below = _loss(params, squares, aspects, labels)
        params[name][index] = saved
        assert grads[name][index] == pytest.approx((above - below) / 2e-4, rel=1e-2, abs=1e-6)


def test_a_few_descent_steps_learn_to_tell_upright_bars_from_level_ones() -> None:
    rng = np.random.default_rng(4)
    squares = np.zeros((40, GLYPH_SIZE, GLYPH_SIZE), np.float32)
    labels = np.zeros(40, np.int64)
    for i in range(40):
        at = int(rng.integers(8, 24))
        if i % 2:
            squares[i, 4:28, at - 2 : at + 2] = 1.0
            labels[i] = 1
        else:
            squares[i, at - 2 : at + 2, 4:28] = 1.0
    aspects = np.zeros(40, np.float32)
    params = initial_params(rng, 2)
    before = _loss(params, squares, aspects, labels)
    for _ in range(30):
        logits, cache = forward(params, squares, aspects)
        d_logits = softmax(logits)
        d_logits[np.arange(40), labels] -= 1
        for name, grad in backward(params, cache, d_logits / 40).items():
            params[name] -= 0.05 * grad
    assert _loss(params, squares, aspects, labels) < 0.5 * before
    assert (forward(params, squares, aspects)[0].argmax(axis=1) == labels).all()


def test_saved_weights_read_as_before_to_a_hundredth() -> None:
    rng = np.random.default_rng(5)
    net = GlyphNet(initial_params(rng, len(CLASSES)), CLASSES)
    squares = rng.random((6, GLYPH_SIZE, GLYPH_SIZE)).astype(np.float32)
    aspects = np.zeros(6, np.float32)
    file = io.BytesIO()
    net.save(file)
    again = GlyphNet.from_npz(file.getvalue())
    assert again.classes == CLASSES
    before, after = net.probabilities(squares, aspects), again.probabilities(squares, aspects)
    np.testing.assert_allclose(after, before, atol=0.01)
    assert again.probabilities(squares[:0], aspects[:0]).shape == (0, len(CLASSES))


@pytest.mark.parametrize("text", ["Q", "K", "A", "J", "7", "3"])
def test_the_shipped_network_reads_a_rendered_rank_glyph(text: str) -> None:
    canvas = np.zeros((60, 90), np.uint8)
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, 30, 3)
    cv2.putText(canvas, text, (15, 45), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 3)
    square, height, width = upright_glyph(canvas, (0.0, 0.0), (0.0, 1.0))
    aspect = np.array([np.log((height + 1.0) / (width + 1.0))], np.float32)
    probabilities = glyph_net().probabilities(square[None], aspect)[0]
    assert int(probabilities.argmax()) == CLASS_INDEX[text]
    # Turned upside down it is no rank of that name.
    upside_down = glyph_net().probabilities(square[None, ::-1, ::-1].copy(), aspect)[0]
    assert int(upside_down.argmax()) != CLASS_INDEX[text] or text in ("8",)


def test_batched_reading_matches_one_square_at_a_time() -> None:
    # The shipped network reads squares READ_BATCH at a time; each square's reading is its own.
    rng = np.random.default_rng(5)
    count = READ_BATCH * 2 + 3
    squares = (rng.random((count, GLYPH_SIZE, GLYPH_SIZE)) > 0.7).astype(np.float32)
    aspects = rng.uniform(-1, 1, count).astype(np.float32)
    together = glyph_net().probabilities(squares, aspects)
    for i in (0, READ_BATCH, count - 1):
        alone = glyph_net().probabilities(squares[i : i + 1], aspects[i : i + 1])[0]
        np.testing.assert_allclose(together[i], alone, atol=1e-6)
