"""vision.features: the batched glyph features are the plain numpy definition's."""

from __future__ import annotations

import numpy as np
import pytest

from vision.features import FEATURE_BATCH, FEATURE_LENGTH, GLYPH_SIZE, glyph_features_batch


def _plain_features(squares: np.ndarray, heights: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """The features written out in numpy alone, pixel by pixel as documented."""
    rows = []
    for square, height, width in zip(squares.astype(np.float64), heights, widths, strict=True):
        p = np.pad(square, 1)
        smooth = np.zeros_like(square)
        kernel = np.array([0.25, 0.5, 0.25])
        for y in range(GLYPH_SIZE):
            for x in range(GLYPH_SIZE):
                smooth[y, x] = kernel @ p[y : y + 3, x : x + 3] @ kernel
        q = np.pad(smooth, 1)
        gx = q[1:-1, 2:] - q[1:-1, :-2]
        gy = q[2:, 1:-1] - q[:-2, 1:-1]
        angle = np.degrees(np.arctan2(gy, gx)) % 180.0  # unsigned orientation
        bins = np.minimum((angle // 20).astype(int), 8)
        hog = np.zeros((4, 4, 9))
        for y in range(GLYPH_SIZE):
            for x in range(GLYPH_SIZE):
                hog[y // 8, x // 8, bins[y, x]] += np.hypot(gx[y, x], gy[y, x])
        hog = np.sqrt(hog.ravel())
        hog /= np.linalg.norm(hog) + 1e-6
        coarse = square.reshape(8, 4, 8, 4).mean(axis=(1, 3)).ravel()
        aspect = np.log((height + 1.0) / (width + 1.0))
        rows.append(np.concatenate([hog * 4.0, coarse, [aspect, 2.0 * square.mean()]]))
    return np.array(rows)


@pytest.mark.parametrize("seed", [1, 2])
def test_batched_features_are_the_plain_definitions(seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Blobs of ink with soft edges, as upright glyph squares look.
    squares = np.zeros((5, GLYPH_SIZE, GLYPH_SIZE), np.float32)
    for square in squares:
        for _ in range(3):
            y, x = rng.integers(4, 28, 2)
            square[y - 3 : y + 4, x - 2 : x + 3] = rng.uniform(0.5, 1.0)
    heights = rng.uniform(5, 40, 5).astype(np.float32)
    widths = rng.uniform(5, 40, 5).astype(np.float32)
    batched = glyph_features_batch(squares, heights, widths)
    assert batched.shape == (5, FEATURE_LENGTH) and batched.dtype == np.float32
    plain = _plain_features(squares, heights, widths)
    # Gradients exactly on a bin boundary may fall either side; nothing else differs.
    np.testing.assert_allclose(batched, plain, atol=2e-3)


def test_features_do_not_depend_on_where_the_squares_lie_in_memory() -> None:
    # OpenCV's SIMD paths may round by an array's alignment (cv2.magnitude does): a glyph
    # read twice must read the same, or a reading may change between two scans of one photo.
    rng = np.random.default_rng(3)
    shape = (40, GLYPH_SIZE, GLYPH_SIZE)
    squares = (rng.random(shape) * (rng.random(shape) > 0.6)).astype(np.float32)
    sides = rng.uniform(5, 40, 40).astype(np.float32)
    reference = glyph_features_batch(squares, sides, sides)
    memory = np.zeros(squares.size + 16, np.float32)
    for offset in range(1, 16):
        shifted = memory[offset : offset + squares.size].reshape(squares.shape)
        shifted[:] = squares
        assert np.array_equal(glyph_features_batch(shifted, sides, sides), reference), offset


def test_glyph_features_are_each_glyphs_own_in_any_batch() -> None:
    # Many glyphs are described in batches: a glyph's features must not depend on its batch.
    rng = np.random.default_rng(3)
    count = FEATURE_BATCH * 2 + 7
    squares = (rng.random((count, GLYPH_SIZE, GLYPH_SIZE)) > 0.6).astype(np.float32)
    heights = rng.uniform(4, 30, count).astype(np.float32)
    widths = rng.uniform(4, 30, count).astype(np.float32)
    together = glyph_features_batch(squares, heights, widths)
    alone = np.stack(
        [
            glyph_features_batch(squares[i : i + 1], heights[i : i + 1], widths[i : i + 1])[0]
            for i in (0, FEATURE_BATCH, count - 1)
        ]
    )
    np.testing.assert_array_equal(together[[0, FEATURE_BATCH, count - 1]], alone)
    assert glyph_features_batch(squares[:0], heights[:0], widths[:0]).shape == (0, FEATURE_LENGTH)
