"""Reading a JOKER written down a card's side as one word, from the photo's ink.

A joker's index is the word JOKER, its letters stacked down the card's side.  Small, they
blur together or break apart, and the glyph readers of :mod:`vision.read`, which read the
J and the K alone, misread them: on the validation photos of held-out deck families the
scanner found two thirds of the jokers and nine in ten of the other cards.  The *word
patch* of a long thin run of ink (:func:`vision.read._long_words`) is instead the ink
darkness around the whole run, cut upright in the run's own frame
(:func:`vision.read.word_frames`) and scaled to its length, read from either end.  The
:class:`JokerNet` (the convolutions of :mod:`vision.glyphnet` over a ``WORD_ALONG`` x
``WORD_ACROSS`` patch, two outputs: "other" and "joker") tells whether it is JOKER read
from that end, J first.

numpy only; the weights ship in ``vision/models/jokernet.npz``, trained by
``scripts/train_reader.py --jokernet`` on the runs the scanner finds in synthetic table
scenes of the development deck families, each with both jokers among its cards.
"""

from __future__ import annotations

import functools
import importlib.resources
import io

import cv2
import numpy as np

from vision.glyphnet import GlyphNet

#: Patch size in pixels: rows along the word (J at the top), columns across it.
WORD_ALONG = 48
WORD_ACROSS = 16
#: Rows the word's own length fills: the rest is a margin of paper (or of whatever lies
#: beyond the word: a frame line, the next card's edge).
WORD_FILL = 40
#: The classes of the network's outputs.
WORD_CLASSES = ("other", "joker")


def word_patches(
    darkness: np.ndarray, centres: np.ndarray, downs: np.ndarray, lengths: np.ndarray
) -> np.ndarray:
    """(N, WORD_ALONG, WORD_ACROSS) float32 patches of (H, W) float32 ``darkness`` in [0, 1]
    around words: ``centres`` (N, 2) x, y; ``downs`` (N, 2) unit vectors from the word's
    first letter to its last (they become +row); ``lengths`` (N,) pixels, scaled to
    ``WORD_FILL`` rows.  Outside the image is 0 (paper).  A word shrunk a lot is read from a
    blurred copy, so thin strokes are not lost between samples.

    >>> darkness = np.zeros((80, 80), np.float32); darkness[20:60, 38:42] = 1.0  # a bar
    >>> patch = word_patches(darkness, np.array([[40.0, 40.0]]), np.array([[0.0, 1.0]]), np.array([40.0]))[0]
    >>> patch.shape, bool(patch[24, 8] > 0.9), bool(patch[24, 1] < 0.1), bool(patch[1, 8] < 0.1)
    ((48, 16), True, True, True)
    >>> turned = word_patches(darkness, np.array([[40.0, 40.0]]), np.array([[1.0, 0.0]]), np.array([40.0]))[0]
    >>> bool(turned[24, 1] > 0.9), bool(turned[4, 8] < 0.1)  # the bar lies across a level word
    (True, True)
    """
    patches = np.zeros((len(centres), WORD_ALONG, WORD_ACROSS), np.float32)
    # Per blur, a photo-sized canvas holding the blurred darkness only around the words that
    # need it (blurring the whole photo cost a millisecond or two a photo).
    blurred: dict[float, np.ndarray] = {}
    reach = 0.5 * float(np.hypot(WORD_ACROSS, WORD_ALONG))
    for i, ((cx, cy), (dx, dy), length) in enumerate(zip(centres, downs, lengths, strict=True)):
        scale = WORD_FILL / max(float(length), 1.0)
        rx, ry = dy, -dx
        matrix = np.array(
            [
                [scale * rx, scale * ry, WORD_ACROSS / 2 - scale * (rx * cx + ry * cy)],
                [scale * dx, scale * dy, WORD_ALONG / 2 - scale * (dx * cx + dy * cy)],
            ],
            np.float32,
        )
        source = darkness
        if scale < 0.7:
            sigma = round(0.5 / scale, 2)  # (rounded: words of about one size share a blur)
            if sigma not in blurred:
                # (np.zeros, not zeros_like: the system hands over zeroed pages as they are touched)
                blurred[sigma] = np.zeros(darkness.shape, np.float32)
            source = blurred[sigma]
            _blur_around(darkness, source, (float(cx), float(cy)), reach / scale + 2.0, sigma)
        patches[i] = cv2.warpAffine(
            source, matrix, (WORD_ACROSS, WORD_ALONG), flags=cv2.INTER_LINEAR, borderValue=0.0
        )
    return np.clip(patches, 0.0, 1.0)


def _blur_around(
    image: np.ndarray, canvas: np.ndarray, centre: tuple[float, float], reach: float, sigma: float
) -> None:
    """Write into ``canvas`` (as ``image``, (H, W) float32) the Gaussian blur (``sigma``) of
    ``image`` within ``reach`` pixels of ``centre``: the very values blurring the whole image
    gives there, to a float's last bit (the blurred window reaches a kernel's radius further).

    >>> image = np.random.default_rng(0).random((60, 80)).astype(np.float32)
    >>> canvas = np.zeros_like(image)
    >>> _blur_around(image, canvas, (70.0, 30.0), 12.0, 1.5)
    >>> whole = cv2.GaussianBlur(image, (0, 0), 1.5)
    >>> bool(np.allclose(canvas[18:43, 58:80], whole[18:43, 58:80], atol=1e-6)), float(canvas[30, 20])
    (True, 0.0)
    """
    height, width = image.shape
    x0, x1 = max(int(centre[0] - reach), 0), min(int(centre[0] + reach) + 2, width)
    y0, y1 = max(int(centre[1] - reach), 0), min(int(centre[1] + reach) + 2, height)
    if x1 <= x0 or y1 <= y0:
        return
    radius = (round(sigma * 4 * 2 + 1) | 1) // 2 + 1  # (OpenCV's kernel for float images)
    wx0, wx1 = max(x0 - radius, 0), min(x1 + radius, width)
    wy0, wy1 = max(y0 - radius, 0), min(y1 + radius, height)
    window = cv2.GaussianBlur(image[wy0:wy1, wx0:wx1], (0, 0), sigma)
    canvas[y0:y1, x0:x1] = window[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0]


class JokerNet:
    """The trained network: :meth:`probabilities` that word patches are JOKER."""

    def __init__(self, net: GlyphNet) -> None:
        if net.classes != WORD_CLASSES:
            raise ValueError(
                "the joker network was trained for other classes: run train_reader.py --jokernet"
            )
        self.net = net

    def probabilities(self, patches: np.ndarray) -> np.ndarray:
        """(N, WORD_ALONG, WORD_ACROSS) patches -> (N,) probabilities of JOKER, J first."""
        if len(patches) == 0:
            return np.zeros(0, np.float32)
        return self.net.probabilities(patches, np.zeros(len(patches), np.float32))[:, 1]

    def save(self, file: io.BytesIO | str) -> None:
        """Weights in float16, as :meth:`vision.glyphnet.GlyphNet.save`."""
        self.net.save(file)


@functools.cache
def joker_net() -> JokerNet:
    """The shipped network, loaded once from the package."""
    data = importlib.resources.files("vision.models").joinpath("jokernet.npz").read_bytes()
    return JokerNet(GlyphNet.from_npz(data))
