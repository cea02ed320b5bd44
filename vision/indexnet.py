"""Reading an index corner whole, from the photo's ink rather than from cut components.

The glyph readers of :mod:`vision.read` see one connected component at a time, so a rank
whose stroke was cut away with a frame line, split in two, or blurred into its suit is
misread before any reader looks at it.  The *index patch* of a proposed pair is instead
the ink darkness of the whole index corner, cut straight from the working image in the
pair's own frame: origin at the rank's centre, "down" towards the suit, one unit the
distance from rank to suit.  Whatever the segmentation did, the patch still shows the
rank and the suit as printed.

:class:`IndexNet` (the convolutions of :mod:`vision.glyphnet`, twice as wide, over a
``PATCH_HEIGHT`` x ``PATCH_WIDTH`` patch, with two outputs: the rank and the suit, each
with "other") reads it.  numpy only; the weights ship in ``vision/models/indexnet.npz``,
trained by ``scripts/train_reader.py --indexnet`` on the scanner's own proposals in
synthetic table scenes of the development deck families and on indices drawn from fonts.
"""

from __future__ import annotations

import functools
import importlib.resources
import io
from typing import Any, NamedTuple

import cv2
import numpy as np

from vision.detect import IndexPair, Ink
from vision.glyphnet import READ_BATCH, Params, first_windows, forward, softmax

#: Patch size in pixels (rows down the index, columns across it).
PATCH_HEIGHT = 40
PATCH_WIDTH = 32
#: What the patch covers, in rank-to-suit distances from the rank's centre: across (left,
#: right) and down (above, below); the suit's centre lies at (0, 1).
ACROSS = (-1.1, 1.1)
DOWN = (-1.0, 1.8)
#: The rank-to-suit distance is kept within these multiples of the rank's size (a suit
#: proposed too near or too far would zoom the patch out of all measure).
UNIT_LIMITS = (0.6, 2.0)


def pair_frames(ink: Ink, pairs: list[IndexPair]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Each pair's frame: (N, 2) origins (the rank's centre), (N, 2) unit downs, (N,) units
    (the rank-to-suit distance, pixels) and (N,) log ratios of unit to rank size.

    >>> labels = np.zeros((10, 10), np.int32)
    >>> ink = Ink(labels, np.zeros((2, 4), np.int32), np.array([[10, 10], [10, 22]], np.float32),
    ...           np.array([12, 8], np.float32), np.zeros(2, np.int32))
    >>> origins, downs, units, ratios = pair_frames(ink, [IndexPair((0,), 1, (0.0, 1.0))])
    >>> origins.tolist(), downs.tolist(), units.tolist(), ratios.round(2).tolist()
    ([[10.0, 10.0]], [[0.0, 1.0]], [12.0], [0.0])
    """
    if not pairs:
        empty = np.zeros((0, 2), np.float32)
        return empty, empty.copy(), np.zeros(0, np.float32), np.zeros(0, np.float32)
    # A rank is one component or two ("10"): the second is the first again for one.
    firsts = np.array([pair.rank[0] for pair in pairs])
    seconds = np.array([pair.rank[-1] for pair in pairs])
    origins = ((ink.centers[firsts] + ink.centers[seconds]) / 2).astype(np.float32)
    downs = np.array([pair.down for pair in pairs], np.float32)
    units = np.hypot(*(ink.centers[[pair.suit for pair in pairs]] - origins).T).astype(np.float32)
    sizes = np.maximum(np.maximum(ink.sizes[firsts], ink.sizes[seconds]), 1.0)
    units = np.clip(units, UNIT_LIMITS[0] * sizes, UNIT_LIMITS[1] * sizes)
    return origins, downs, units, np.log(units / sizes).astype(np.float32)


def index_patches(
    darkness: np.ndarray, origins: np.ndarray, downs: np.ndarray, units: np.ndarray
) -> np.ndarray:
    """(N, PATCH_HEIGHT, PATCH_WIDTH) float32 patches of (H, W) float32 ``darkness`` in each
    frame (:func:`pair_frames`); outside the image is 0 (paper).  A frame much larger than
    the patch is read from a halved (blurred) copy of the image, so thin strokes are not
    lost between samples.

    >>> darkness = np.zeros((60, 60), np.float32); darkness[20:30, 28:32] = 1.0  # a bar
    >>> patch = index_patches(darkness, np.array([[30, 25]], np.float32),
    ...                       np.array([[0, 1]], np.float32), np.array([10], np.float32))[0]
    >>> patch.shape, bool(patch[14, 16] > 0.9), bool(patch[14, 4] < 0.1)
    ((40, 32), True, True)
    """
    patches = np.zeros((len(origins), PATCH_HEIGHT, PATCH_WIDTH), np.float32)
    if not len(origins):
        return patches
    step_across = (ACROSS[1] - ACROSS[0]) / PATCH_WIDTH
    step_down = (DOWN[1] - DOWN[0]) / PATCH_HEIGHT
    # Every patch's level (halvings of the image, at most three, until its samples are at
    # most 2 pixels apart) and warp matrix at once.
    spacing = np.asarray(units, np.float64) * max(step_across, step_down)
    level = np.zeros(len(origins), np.int64)
    for _ in range(3):
        coarse = spacing > 2.0
        spacing[coarse] /= 2.0
        level[coarse] += 1
    factor = 0.5**level
    down = np.asarray(downs, np.float64)
    right = np.stack([down[:, 1], -down[:, 0]], axis=1)
    unit = (np.asarray(units, np.float64) * factor)[:, None]
    # Patch pixel (column, row) -> image point; pixel centres sit half a step in.
    corner = np.asarray(origins, np.float64) * factor[:, None] + 0.5 * (factor[:, None] - 1.0)
    corner += unit * ((ACROSS[0] + 0.5 * step_across) * right + (DOWN[0] + 0.5 * step_down) * down)
    matrices = np.stack([unit * step_across * right, unit * step_down * down, corner], axis=2)
    levels = [darkness]
    for i, matrix in enumerate(matrices):
        while len(levels) <= level[i]:
            levels.append(cv2.pyrDown(levels[-1]))
        patches[i] = cv2.warpAffine(
            levels[level[i]],
            matrix,
            (PATCH_WIDTH, PATCH_HEIGHT),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0.0,
        )
    return patches


class IndexNet:
    """The trained network: :meth:`probabilities` of index patches."""

    def __init__(self, params: Params, ranks: tuple[str, ...], suits: tuple[str, ...]) -> None:
        self.params = {name: value.astype(np.float32) for name, value in params.items()}
        self.ranks = ranks
        self.suits = suits

    def probabilities(
        self, patches: np.ndarray, ratios: np.ndarray, first: tuple[np.ndarray, int, int] | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """(N, PATCH_HEIGHT, PATCH_WIDTH) patches and (N,) log unit-to-size ratios -> (N,
        ranks) and (N, suits) probabilities (each with "other" last); ``first``: the
        patches' :func:`vision.glyphnet.first_windows`, where already cut."""
        if len(patches) == 0:
            return np.zeros((0, len(self.ranks)), np.float32), np.zeros((0, len(self.suits)), np.float32)
        logits = forward(self.params, patches, ratios, keep=False, first=first)[0]
        return split_softmax(logits, len(self.ranks))

    def save(self, file: io.BytesIO | str) -> None:
        """Weights in float16, with the class names."""
        arrays: dict[str, Any] = {name: value.astype(np.float16) for name, value in self.params.items()}
        np.savez_compressed(file, ranks=np.array(self.ranks), suits=np.array(self.suits), **arrays)

    @classmethod
    def from_npz(cls, data: bytes) -> IndexNet:
        with np.load(io.BytesIO(data)) as arrays:
            ranks = tuple(str(c) for c in arrays["ranks"])
            suits = tuple(str(c) for c in arrays["suits"])
            params = {name: arrays[name] for name in arrays.files if name not in ("ranks", "suits")}
        return cls(params, ranks, suits)


def split_softmax(logits: np.ndarray, ranks: int) -> tuple[np.ndarray, np.ndarray]:
    """The two heads' probabilities: softmax over the first ``ranks`` columns and over the rest."""
    return softmax(logits[:, :ranks]), softmax(logits[:, ranks:])


class IndexEnsemble:
    """Networks of the same classes read together: :meth:`probabilities` is their average.

    Networks trained alike on different scenes, or from different starting weights, err on
    different patches: averaged, they are surer where they agree and less sure where one
    alone is (on validation photos two averaged, rescuing from 0.8, read 0.2 to 0.4 points
    more precisely than the first network alone at its best, from 0.9, with as much recall
    or more; see :data:`vision.read.WHOLE_SURE`).
    """

    def __init__(self, members: list[IndexNet]) -> None:
        if not members or any((m.ranks, m.suits) != (members[0].ranks, members[0].suits) for m in members):
            raise ValueError("an ensemble needs networks of the same classes")
        self.members = members
        self.ranks = members[0].ranks
        self.suits = members[0].suits

    def probabilities(
        self, patches: np.ndarray, ratios: np.ndarray, reach: Reach | None = None
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`IndexNet.probabilities`, averaged over the members (read in batches of
        :data:`vision.glyphnet.READ_BATCH` patches).

        With ``reach`` (what the caller acts on), later members leave out patches that the
        members before them read as hopeless (:data:`CASCADE_FLOOR`), and the last leaves out
        those that cannot reach ``reach.level`` whatever it reads: such a patch's readings are
        the average of the members that read it, far below the level in ``reach.columns``."""
        if len(patches) <= READ_BATCH:
            return self._averaged(patches, ratios, reach)
        parts = []
        for start in range(0, len(patches), READ_BATCH):
            part = slice(start, start + READ_BATCH)
            batch_reach = reach._replace(always=reach.always[part]) if reach is not None else None
            parts.append(self._averaged(patches[part], ratios[part], batch_reach))
        return np.concatenate([ranks for ranks, _ in parts]), np.concatenate([suits for _, suits in parts])

    def _averaged(
        self, patches: np.ndarray, ratios: np.ndarray, reach: Reach | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """The members' readings of one batch of patches, averaged."""
        count = len(patches)
        if count == 0:
            return self.members[0].probabilities(patches, ratios)
        # The members' first convolutions see the same windows: cut once.
        first = first_windows(patches)
        windows, out_h, out_w = first
        rank_sum = np.zeros((count, len(self.ranks)), np.float32)
        suit_sum = np.zeros((count, len(self.suits)), np.float32)
        readers = np.zeros(count, np.int32)  # (a skipped patch keeps the average of those that read it)
        rows = np.arange(count)  # the patches still in play, read by every member so far
        for k, member in enumerate(self.members):
            if reach is not None and k >= CASCADE_FULL:
                best = rank_sum[rows][:, reach.columns].max(axis=1)
                if k == len(self.members) - 1:
                    # The sum so far plus the most the last can add (1) must reach the level.
                    hopeful = best + 1.0 >= len(self.members) * reach.level - REACH_SLACK
                else:
                    hopeful = best >= CASCADE_FLOOR * k
                rows = rows[hopeful | reach.always[rows]]
                if rows.size == 0:
                    break
            if rows.size == count:
                part = first
            else:
                cut = windows.reshape(count, out_h * out_w, -1)[rows].reshape(-1, windows.shape[1])
                part = (cut, out_h, out_w)
            member_ranks, member_suits = member.probabilities(patches[rows], ratios[rows], part)
            rank_sum[rows] += member_ranks
            suit_sum[rows] += member_suits
            readers[rows] += 1
        return rank_sum / readers[:, None], suit_sum / readers[:, None]


class Reach(NamedTuple):
    """What a reader of :meth:`IndexEnsemble.probabilities` acts on: a patch whose average
    probability reaches ``level`` in one of ``columns`` (rank columns), and every patch of
    ``always`` ((N,) bool)."""

    columns: list[int]
    level: float
    always: np.ndarray


#: (Rounding: a patch within this of its reach is read by every member.)
REACH_SLACK = 1e-4
#: With a ``Reach``, the first this many members read every patch, and a later one (but the
#: last) only the patches whose average so far reaches ``CASCADE_FLOOR`` in a rank column.
#: To reach a rescue from below it, the members after would have to be far surer than those
#: before.  On 70 validation photos the same cards and confidences as every member reading
#: every patch (from 0.2 or 0.35, after one or two members), and the same figures on the
#: validation sets and five calibrated decks; a standard photo's first member reads 112
#: patches, each of the others about 13.
CASCADE_FULL = 1
CASCADE_FLOOR = 0.2


#: The shipped networks (``vision/models``), each trained by ``scripts/train_reader.py
#: --indexnet``: on 3,000 scenes; on 6,000 (``--scenes 6000 -o .../indexnet_6000.npz``); on
#: those 6,000 and 3,000 of another seed (``--extra-scenes 47:3000 --net-seed 59 -o
#: .../indexnet_9000.npz``); and on the same 6,000 from other starting weights, batches and
#: drawn indices (``--net-seed 47 -o .../indexnet_6000_n47.npz``), last, as it reads only
#: the patches that may still reach a rescue (:class:`Reach`).  Each costs about 1.7 ms a
#: 1920x1080 photo.  (The fourth, on 9,000 scenes, read alone 86% of its held-back indices
#: right.  In place of the first it found as many validation cards; beside the others it
#: found 3 more of 1,784 and 3 false ones fewer, and it lets calibrated rescues count from
#: 0.55: see :data:`vision.read.CALIBRATED_WHOLE_SURE`.)
INDEX_NET_FILES = ("indexnet.npz", "indexnet_6000.npz", "indexnet_9000.npz", "indexnet_6000_n47.npz")


@functools.cache
def index_net() -> IndexEnsemble:
    """The shipped networks, loaded once from the package and read together."""
    models = importlib.resources.files("vision.models")
    return IndexEnsemble([IndexNet.from_npz(models.joinpath(name).read_bytes()) for name in INDEX_NET_FILES])
