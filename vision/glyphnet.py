"""A small convolutional glyph reader, a second opinion beside the perceptron of
:mod:`vision.read`: three strided convolutions and a one-hidden-layer perceptron over the
upright glyph square of :func:`vision.features.upright_glyphs` and its log aspect ratio.

numpy only (about 0.2 million multiply-adds a glyph); the weights ship in
``vision/models/glyphnet.npz``, trained by ``scripts/train_reader.py --glyphnet`` with
:func:`forward` and :func:`backward` below, on glyphs generated the way the perceptron's are.
Activations are kept as (N, H, W, C) arrays and each convolution is one matrix product over
the windows of its input (im2col).
"""

from __future__ import annotations

import functools
import importlib.resources
import io
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from vision.features import GLYPH_SIZE

#: The convolutions: (output channels, kernel side, stride, padding); each halves the side.
LAYERS: tuple[tuple[int, int, int, int], ...] = ((8, 5, 2, 2), (16, 3, 2, 1), (32, 3, 2, 1))
#: Units of the hidden perceptron layer.
HIDDEN = 64
#: Squares (or index patches) read at a time.  A photo's few hundred make intermediate
#: arrays of megabytes, and allocating those afresh on every read cost more than the
#: arithmetic: the allocator hands such blocks back to the system and faults them in again
#: page by page.  In batches of 32 the blocks are small enough to be reused (150 index
#: patches through the three index networks: 44 ms in one batch, 24 ms in batches of 32,
#: the same readings; in batches of 16 they differ in the eleventh decimal).
READ_BATCH = 32

Params = dict[str, np.ndarray]


class _Cache(NamedTuple):
    """What :func:`backward` needs of a :func:`forward` pass."""

    windows: list[np.ndarray]  # per convolution: (N * Ho * Wo, C * k * k) input windows
    shapes: list[tuple[int, ...]]  # per convolution: its (N, H, W, C) input shape
    active: list[np.ndarray]  # per convolution: (N * Ho * Wo, O) bool, ReLU passed
    last: tuple[int, ...]  # the last convolution's (N, Ho, Wo, O) output shape
    flat: np.ndarray  # (N, D + 1) perceptron input
    hidden: np.ndarray  # (N, HIDDEN) hidden activations (after ReLU)


def initial_params(
    rng: np.random.Generator,
    classes: int,
    shape: tuple[int, int] = (GLYPH_SIZE, GLYPH_SIZE),
    channels_out: tuple[int, ...] | None = None,
    hidden: int = HIDDEN,
) -> Params:
    """He-initialised weights for ``classes`` outputs from inputs of ``shape`` (rows, columns),
    with ``channels_out`` channels out of each of the :data:`LAYERS` (their own by default)
    and ``hidden`` hidden units: a network's widths are read back from its weights.

    >>> params = initial_params(np.random.default_rng(0), 23)
    >>> params["w0"].shape, params["w2"].shape, params["f1"].shape, params["f2"].shape
    ((25, 8), (144, 32), (513, 64), (64, 23))
    >>> wide = initial_params(np.random.default_rng(0), 5, (40, 32), (8, 24, 48), 96)
    >>> wide["w2"].shape, wide["f1"].shape
    ((216, 48), (961, 96))
    """
    params: Params = {}
    channels, (rows, columns) = 1, shape
    outs = channels_out or tuple(layer[0] for layer in LAYERS)
    for i, (out, (_, kernel, stride, pad)) in enumerate(zip(outs, LAYERS, strict=True)):
        fan_in = channels * kernel * kernel
        params[f"w{i}"] = rng.normal(0, np.sqrt(2 / fan_in), (fan_in, out)).astype(np.float32)
        params[f"b{i}"] = np.zeros(out, np.float32)
        channels = out
        rows, columns = ((side + 2 * pad - kernel) // stride + 1 for side in (rows, columns))
    flat = rows * columns * channels + 1
    params["f1"] = rng.normal(0, np.sqrt(2 / flat), (flat, hidden)).astype(np.float32)
    params["g1"] = np.zeros(hidden, np.float32)
    params["f2"] = rng.normal(0, np.sqrt(1 / hidden), (hidden, classes)).astype(np.float32)
    params["g2"] = np.zeros(classes, np.float32)
    return params


def _offsets(kernel: int, stride: int, out_h: int, out_w: int) -> Iterator[tuple[int, int, slice, slice]]:
    """Each kernel offset (dy, dx) with the strided rows and columns of the padded input that
    it meets at the Ho x Wo output pixels."""
    for dy in range(kernel):
        for dx in range(kernel):
            yield dy, dx, slice(dy, dy + stride * out_h, stride), slice(dx, dx + stride * out_w, stride)


def _windows(x: np.ndarray, kernel: int, stride: int, pad: int) -> tuple[np.ndarray, int, int]:
    """(N * Ho * Wo, C * kernel * kernel) windows of (N, H, W, C) ``x``, and Ho, Wo: row
    (n, i, j) holds the window at output pixel (i, j), channel by channel, each channel's
    kernel * kernel pixels row by row.

    >>> x = np.arange(16, dtype=np.float32).reshape(1, 4, 4, 1)
    >>> windows, out_h, out_w = _windows(x, 3, 1, 0)
    >>> (out_h, out_w), windows[0].tolist()
    ((2, 2), [0.0, 1.0, 2.0, 4.0, 5.0, 6.0, 8.0, 9.0, 10.0])
    """
    n, height, width, channels = x.shape
    padded = np.zeros((n, height + 2 * pad, width + 2 * pad, channels), np.float32)
    padded[:, pad : pad + height, pad : pad + width] = x
    out_h = (height + 2 * pad - kernel) // stride + 1
    out_w = (width + 2 * pad - kernel) // stride + 1
    # One strided slice a kernel offset (a few copies of the whole batch, not one per window).
    windows = np.empty((n, out_h, out_w, channels, kernel * kernel), np.float32)
    for dy, dx, rows, columns in _offsets(kernel, stride, out_h, out_w):
        windows[..., dy * kernel + dx] = padded[:, rows, columns]
    return windows.reshape(n * out_h * out_w, channels * kernel * kernel), out_h, out_w


def first_windows(squares: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The first convolution's :func:`_windows` of (N, H, W) ``squares``: networks reading the
    same squares (an ensemble's members) cut them once and pass them to :func:`forward`."""
    _, kernel, stride, pad = LAYERS[0]
    return _windows(squares.astype(np.float32)[:, :, :, None], kernel, stride, pad)


def forward(
    params: Params,
    squares: np.ndarray,
    aspects: np.ndarray,
    keep: bool = True,
    first: tuple[np.ndarray, int, int] | None = None,
) -> tuple[np.ndarray, _Cache]:
    """(N, C) logits of (N, GLYPH_SIZE, GLYPH_SIZE) float32 ``squares`` with (N,) log aspect
    ratios ``aspects``, and what :func:`backward` needs (its per-convolution lists left
    empty unless ``keep``: reading needs no gradients).  ``first``: the squares'
    :func:`first_windows`, where already cut."""
    x = squares.astype(np.float32)[:, :, :, None]
    cache = _Cache([], [], [], (), np.zeros(0), np.zeros(0))
    for i, (_, kernel, stride, pad) in enumerate(LAYERS):
        out = params[f"w{i}"].shape[1]
        if i == 0 and first is not None:
            windows, out_h, out_w = first
        else:
            windows, out_h, out_w = _windows(x, kernel, stride, pad)
        z = windows @ params[f"w{i}"] + params[f"b{i}"]
        if keep:
            cache.windows.append(windows)
            cache.shapes.append(x.shape)
            cache.active.append(z > 0)
        x = np.maximum(z, 0.0).reshape(x.shape[0], out_h, out_w, out)
    flat = np.concatenate([x.reshape(x.shape[0], -1), np.asarray(aspects, np.float32)[:, None]], axis=1)
    hidden = np.maximum(flat @ params["f1"] + params["g1"], 0.0)
    logits = hidden @ params["f2"] + params["g2"]
    return logits, cache._replace(last=x.shape, flat=flat, hidden=hidden)


def backward(params: Params, cache: _Cache, d_logits: np.ndarray) -> Params:
    """Gradients of every parameter given the loss's (N, C) gradient ``d_logits``."""
    grads: Params = {
        "f2": cache.hidden.T @ d_logits,
        "g2": d_logits.sum(axis=0),
    }
    d_hidden = (d_logits @ params["f2"].T) * (cache.hidden > 0)
    grads["f1"] = cache.flat.T @ d_hidden
    grads["g1"] = d_hidden.sum(axis=0)
    d_x = (d_hidden @ params["f1"].T)[:, :-1].reshape(cache.last)
    for i in reversed(range(len(LAYERS))):
        _, kernel, stride, pad = LAYERS[i]
        out = params[f"w{i}"].shape[1]
        d_z = d_x.reshape(-1, out) * cache.active[i]
        grads[f"w{i}"] = cache.windows[i].T @ d_z
        grads[f"b{i}"] = d_z.sum(axis=0)
        if i == 0:
            break
        # Each window's gradient goes back to the input pixels it was cut from (col2im).
        n, height, width, channels = cache.shapes[i]
        out_h, out_w = cache.shapes[i + 1][1:3] if i + 1 < len(LAYERS) else cache.last[1:3]
        d_windows = (d_z @ params[f"w{i}"].T).reshape(n, out_h, out_w, channels, kernel, kernel)
        padded = np.zeros((n, height + 2 * pad, width + 2 * pad, channels), np.float32)
        for dy, dx, rows, columns in _offsets(kernel, stride, out_h, out_w):
            padded[:, rows, columns] += d_windows[..., dy, dx]
        d_x = padded[:, pad : pad + height, pad : pad + width]
    return grads


def softmax(logits: np.ndarray) -> np.ndarray:
    """Row-wise softmax of (N, C) ``logits``."""
    shifted = np.exp(logits - logits.max(axis=1, keepdims=True))
    return np.asarray(shifted / shifted.sum(axis=1, keepdims=True), dtype=np.float32)


class GlyphNet:
    """The trained network: :meth:`probabilities` of glyph squares."""

    def __init__(self, params: Params, classes: tuple[str, ...]) -> None:
        self.params = {name: value.astype(np.float32) for name, value in params.items()}
        self.classes = classes

    def probabilities(self, squares: np.ndarray, aspects: np.ndarray) -> np.ndarray:
        """(N, GLYPH_SIZE, GLYPH_SIZE) squares and (N,) log aspect ratios -> (N, classes)."""
        if len(squares) == 0:
            return np.zeros((0, len(self.classes)), np.float32)
        return np.concatenate(
            [
                softmax(
                    forward(
                        self.params,
                        squares[start : start + READ_BATCH],
                        aspects[start : start + READ_BATCH],
                        keep=False,
                    )[0]
                )
                for start in range(0, len(squares), READ_BATCH)
            ]
        )

    def save(self, file: io.BytesIO | str) -> None:
        """Weights in float16 (the readings move by under 0.01), with the class names."""
        arrays: dict[str, Any] = {name: value.astype(np.float16) for name, value in self.params.items()}
        np.savez_compressed(file, classes=np.array(self.classes), **arrays)

    @classmethod
    def from_npz(cls, data: bytes) -> GlyphNet:
        with np.load(io.BytesIO(data)) as arrays:
            classes = tuple(str(c) for c in arrays["classes"])
            params = {name: arrays[name] for name in arrays.files if name != "classes"}
        return cls(params, classes)


@functools.cache
def glyph_net() -> GlyphNet:
    """The shipped network, loaded once from the package."""
    from vision.read import CLASSES

    data = importlib.resources.files("vision.models").joinpath("glyphnet.npz").read_bytes()
    net = GlyphNet.from_npz(data)
    if net.classes != CLASSES:
        raise ValueError("the glyph network was trained for other classes: run train_reader.py --glyphnet")
    return net
