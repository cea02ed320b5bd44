"""vision.indexnet: index patches cut in a pair's own frame, and the shipped network reading them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.vision.conftest import draw_card, paste, suit_shape, table
from vision.detect import IndexPair, Ink, index_pairs, ink_components, paper_regions
from vision.features import FEATURE_LENGTH
from vision.indexnet import INDEX_NET_FILES, PATCH_HEIGHT, PATCH_WIDTH, index_net, index_patches, pair_frames
from vision.read import GAME_RANKS, GAME_SUITS, SUIT_COLOURS, _read_whole

COLOURS = SUIT_COLOURS["standard"]


def _letter_l() -> np.ndarray:
    darkness = np.zeros((80, 80), np.float32)
    darkness[20:50, 30:35] = 1.0  # the upright stroke
    darkness[45:50, 30:48] = 1.0  # the foot, to the right
    return darkness


def test_a_patch_is_cut_upright_in_the_frame_of_its_down() -> None:
    upright = index_patches(
        _letter_l(),
        np.array([[32, 35]], np.float32),
        np.array([[0, 1]], np.float32),
        np.array([12], np.float32),
    )[0]
    # The same letter turned a quarter clockwise on screen: its "down" now points left.
    turned = np.rot90(_letter_l(), k=-1).copy()
    # (x, y) -> (79 - y, x) under that turn.
    sideways = index_patches(
        turned,
        np.array([[79 - 35, 32]], np.float32),
        np.array([[-1, 0]], np.float32),
        np.array([12], np.float32),
    )[0]
    assert upright.shape == (PATCH_HEIGHT, PATCH_WIDTH)
    assert np.abs(upright - sideways).max() < 1e-4
    # The foot runs to the right of the stroke, below the origin, as drawn.
    rows, columns = np.nonzero(upright > 0.5)
    assert columns.max() - PATCH_WIDTH / 2 > PATCH_WIDTH / 2 - columns.min()
    assert rows.max() > PATCH_HEIGHT / 2


def test_a_frame_far_larger_than_the_patch_reads_a_halved_image() -> None:
    darkness = np.zeros((400, 400), np.float32)
    darkness[100:300, 198:202] = 1.0  # a thin line, 4 px wide
    patch = index_patches(
        darkness,
        np.array([[200, 150]], np.float32),
        np.array([[0, 1]], np.float32),
        np.array([120], np.float32),
    )[0]
    # Sampled every 8 pixels straight from the image a 4-pixel line could vanish; it is seen.
    assert patch[:, PATCH_WIDTH // 2 - 2 : PATCH_WIDTH // 2 + 2].max() > 0.3


def _proposals(photo: np.ndarray) -> tuple[Ink, list[IndexPair]]:
    ink = ink_components(photo, paper_regions(photo))
    assert ink.darkness is not None
    return ink, index_pairs(ink)


def _drawn_index_readings(rank: str, suit: str, scale: float, angle: float) -> tuple[str, str, float]:
    """The shipped network's best reading of the pairs proposed at a drawn card's indices."""
    photo = table(500, 500)
    paste(photo, draw_card(rank, suit, scale), (250, 250), angle)
    ink = ink_components(photo, paper_regions(photo))
    assert ink.darkness is not None
    pairs = index_pairs(ink)
    net = index_net()
    origins, downs, units, ratios = pair_frames(ink, pairs)
    ranks_p, suits_p = net.probabilities(index_patches(ink.darkness, origins, downs, units), ratios)
    best = int(np.argmax(ranks_p[:, :-1].max(axis=1) * suits_p[:, :-1].max(axis=1)))
    score = float(ranks_p[best, :-1].max() * suits_p[best, :-1].max())
    return net.ranks[int(ranks_p[best].argmax())], net.suits[int(suits_p[best].argmax())], score


@pytest.mark.parametrize(
    ("rank", "suit", "scale", "angle"),
    [
        ("K", "spades", 1.0, 0.0),
        ("7", "hearts", 1.3, 30.0),
        ("A", "clubs", 0.9, -120.0),
        ("Q", "diamonds", 1.1, 200.0),
    ],
)
def test_the_shipped_network_reads_a_drawn_index(rank: str, suit: str, scale: float, angle: float) -> None:
    assert _drawn_index_readings(rank, suit, scale, angle)[:2] == (rank, suit)


@pytest.mark.parametrize("suit", ["spades", "hearts", "clubs", "diamonds"])
def test_the_shipped_network_reads_pips_as_no_index(suit: str) -> None:
    # Two pips one above the other, alone on paper: a pair the scanner proposes, but no index.
    photo = table(400, 400)
    cv2.rectangle(photo, (120, 80), (280, 320), (242, 242, 242), -1)
    pip = suit_shape(suit, 22)
    for top in (140, 172):
        region = photo[top : top + pip.shape[0], 189 : 189 + pip.shape[1]]
        region[pip > 128] = (20, 20, 20)
    ink, pairs = _proposals(photo)
    assert len(pairs) == 2  # each pip above the other
    assert ink.darkness is not None
    net = index_net()
    origins, downs, units, ratios = pair_frames(ink, pairs)
    ranks_p, suits_p = net.probabilities(index_patches(ink.darkness, origins, downs, units), ratios)
    assert (ranks_p[:, -1] > 0.9).all() and (suits_p[:, -1] > 0.9).all()


def test_an_unread_index_is_rescued_and_a_passing_pip_pair_vetoed() -> None:
    photo = table(500, 500)
    paste(photo, draw_card("7", "hearts", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    # As if the glyph readers had read nothing: every pair unread, every suit glyph suit-like.
    nothing = np.zeros(len(pairs))
    suit_like = np.ones(len(pairs))
    whole = _read_whole(ink, ink.darkness, pairs, "standard", nothing, 0.4, suit_like, photo, COLOURS)
    ranks, suits = GAME_RANKS["standard"], GAME_SUITS["standard"]
    rescued = {(ranks[r], suits[s]) for r, s in zip(whole.ranks, whole.suits, strict=True)}
    assert rescued == {("7", "hearts")}
    assert len(whole.vetoed) == 0
    # As if they had passed every pair, unsure: the pips' and the crossed pairs' readings are
    # vetoed, the two indices' are not.
    unsure = np.full(len(pairs), 0.5)
    whole = _read_whole(ink, ink.darkness, pairs, "standard", unsure, 0.4, 0 * suit_like, photo, COLOURS)
    kept = [pairs[i] for i in range(len(pairs)) if i not in set(whole.vetoed.tolist())]
    assert 2 <= len(kept) < len(pairs)
    assert len(whole.rescued) == 0


def test_an_unsure_passing_reading_of_another_card_is_overruled_but_a_sure_one_or_a_one_stands() -> None:
    from vision.read import WHOLE_OVERRULES, WHOLE_STANDS

    photo = table(500, 500)
    paste(photo, draw_card("7", "clubs", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    ranks, suits = GAME_RANKS["standard"], GAME_SUITS["standard"]
    # As if the glyph readers had passed every pair as a 7 of spades (a club's lobes blurred).
    as_spades = (np.full(len(pairs), ranks.index("7")), np.full(len(pairs), suits.index("spades")))
    nothing = np.zeros(len(pairs))
    for score, overruled in [(0.6, True), (WHOLE_STANDS, False)]:
        passed = np.full(len(pairs), score)
        whole = _read_whole(
            ink, ink.darkness, pairs, "standard", passed, 0.4, nothing, photo, COLOURS, read=as_spades
        )
        assert (len(whole.overruled) > 0) == overruled
        taken = dict(zip(whole.rescued.tolist(), zip(whole.ranks, whole.suits, strict=True), strict=True))
        assert set(whole.overruled.tolist()) <= set(taken)
        assert {(ranks[r], suits[s]) for r, s in taken.values()} <= {("7", "clubs")}
        assert (whole.scores >= WHOLE_OVERRULES).all()
    # Without the glyph readers' reading nothing is overruled; a Tichu "1" (the Mahjong) stands.
    unsure = np.full(len(pairs), 0.6)
    assert (
        len(_read_whole(ink, ink.darkness, pairs, "standard", unsure, 0.4, nothing, photo, COLOURS).overruled)
        == 0
    )
    tichu_ranks = GAME_RANKS["tichu"]
    as_ones = (np.full(len(pairs), tichu_ranks.index("1")), np.zeros(len(pairs), np.int64))
    tichu = _read_whole(
        ink, ink.darkness, pairs, "tichu", unsure, 0.4, nothing, photo, SUIT_COLOURS["tichu"], read=as_ones
    )
    assert len(tichu.overruled) == 0


def test_only_pairs_whose_suit_glyph_reads_as_a_suit_above_the_floor_are_read_whole() -> None:
    # The glyph readers read nothing and call every suit glyph a suit only 0.1 surely: above
    # a floor of 0.2 no pair is asked; the shipped floors (built-in and calibrated) are lower,
    # and there the seven is read whole.
    from vision.read import CALIBRATED_WHOLE_SUIT_FLOOR, WHOLE_SUIT_FLOOR

    assert max(WHOLE_SUIT_FLOOR, CALIBRATED_WHOLE_SUIT_FLOOR) < 0.1
    photo = table(500, 500)
    paste(photo, draw_card("7", "hearts", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    nothing, faint = np.zeros(len(pairs)), np.full(len(pairs), 0.1)
    ranks, suits = GAME_RANKS["standard"], GAME_SUITS["standard"]
    seven = {("7", "hearts")}
    for floor, expected in [(0.2, set()), (WHOLE_SUIT_FLOOR, seven), (CALIBRATED_WHOLE_SUIT_FLOOR, seven)]:
        whole = _read_whole(
            ink, ink.darkness, pairs, "standard", nothing, 0.4, faint, photo, COLOURS, None, floor
        )
        assert {(ranks[r], suits[s]) for r, s in zip(whole.ranks, whole.suits, strict=True)} == expected


def test_the_shipped_networks_are_read_together_as_their_average() -> None:
    from vision.indexnet import IndexEnsemble, IndexNet

    ensemble = index_net()
    assert len(ensemble.members) == len(INDEX_NET_FILES) == 4
    photo = table(500, 500)
    paste(photo, draw_card("7", "hearts", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    patches = index_patches(ink.darkness, *pair_frames(ink, pairs)[:3])
    ratios = pair_frames(ink, pairs)[3]
    ranks, suits = ensemble.probabilities(patches, ratios)
    readings = [member.probabilities(patches, ratios) for member in ensemble.members]
    np.testing.assert_allclose(ranks, sum(r for r, _ in readings) / 4, atol=1e-6)
    np.testing.assert_allclose(suits, sum(s for _, s in readings) / 4, atol=1e-6)
    weights = [member.params["w0"] for member in ensemble.members]
    for k, first in enumerate(weights):  # four networks, not one twice
        assert all(first.shape == other.shape and not np.allclose(first, other) for other in weights[k + 1 :])
    odd = IndexNet(ensemble.members[0].params, ensemble.ranks[:-1], ensemble.suits)
    with pytest.raises(ValueError, match="same classes"):
        IndexEnsemble([ensemble.members[0], odd])


def test_many_patches_are_read_in_batches_each_as_alone() -> None:
    from vision.glyphnet import READ_BATCH

    rng = np.random.default_rng(11)
    count = 2 * READ_BATCH + 5
    patches = rng.random((count, PATCH_HEIGHT, PATCH_WIDTH)).astype(np.float32)
    ratios = rng.uniform(-0.3, 0.5, count).astype(np.float32)
    ranks, suits = index_net().probabilities(patches, ratios)
    assert ranks.shape == (count, len(index_net().ranks)) and suits.shape == (count, len(index_net().suits))
    for i in (0, READ_BATCH, count - 1):
        alone_ranks, alone_suits = index_net().probabilities(patches[i : i + 1], ratios[i : i + 1])
        np.testing.assert_allclose(ranks[i], alone_ranks[0], atol=1e-6)
        np.testing.assert_allclose(suits[i], alone_suits[0], atol=1e-6)


def _seven_and_noise(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The index patches of a drawn seven of hearts, and those followed by 40 patches of
    noise with their ratios."""
    photo = table(500, 500)
    paste(photo, draw_card("7", "hearts", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    drawn = index_patches(ink.darkness, *pair_frames(ink, pairs)[:3])
    noise = np.random.default_rng(seed).random((40, PATCH_HEIGHT, PATCH_WIDTH)).astype(np.float32)
    ratios = np.concatenate([pair_frames(ink, pairs)[3], np.zeros(40, np.float32)])
    return drawn, np.concatenate([drawn, noise]), ratios


def test_the_last_network_skips_only_patches_that_cannot_reach_what_is_asked() -> None:
    from vision.indexnet import Reach

    drawn, patches, ratios = _seven_and_noise(2)
    ensemble = index_net()
    columns = [ensemble.ranks.index(r) for r in GAME_RANKS["standard"]]
    always = np.zeros(len(patches), bool)
    always[-1] = True  # noise, but asked for whatever it reads
    ranks, suits = ensemble.probabilities(patches, ratios)
    reached_ranks, reached_suits = ensemble.probabilities(patches, ratios, Reach(columns, 0.5, always))
    same = np.isclose(ranks, reached_ranks, atol=1e-6).all(axis=1) & np.isclose(
        suits, reached_suits, atol=1e-6
    ).all(axis=1)
    assert same[-1] and same[: len(drawn)].any()  # the asked patch and the drawn index are read by all
    assert not same.all()  # most noise is not
    # A patch left out cannot reach the level: not with the last network's reading, not without.
    assert (ranks[~same][:, columns].max(axis=1) < 0.5).all()
    assert (reached_ranks[~same][:, columns].max(axis=1) < 0.5).all()


def test_the_middle_networks_read_only_patches_the_first_finds_hopeful() -> None:
    from vision.indexnet import CASCADE_FLOOR, CASCADE_FULL, IndexEnsemble, IndexNet, Reach

    class Recording(IndexNet):
        """A shipped network that notes every patch it reads."""

        def __init__(self, net: IndexNet) -> None:
            super().__init__(net.params, net.ranks, net.suits)
            self.read: list[bytes] = []

        def probabilities(
            self, patches: np.ndarray, ratios: np.ndarray, first: tuple[np.ndarray, int, int] | None = None
        ) -> tuple[np.ndarray, np.ndarray]:
            self.read.extend(patch.tobytes() for patch in patches)
            return super().probabilities(patches, ratios, first)

    drawn, patches, ratios = _seven_and_noise(3)
    recorders = [Recording(member) for member in index_net().members]
    members: list[IndexNet] = [*recorders]
    ensemble = IndexEnsemble(members)
    columns = [ensemble.ranks.index(r) for r in GAME_RANKS["standard"]]
    always = np.zeros(len(patches), bool)
    always[-1] = True  # noise, but asked for whatever it reads
    full_ranks, _ = ensemble.probabilities(patches, ratios)
    for recorder in recorders:
        recorder.read.clear()
    ranks, _ = ensemble.probabilities(patches, ratios, Reach(columns, 0.5, always))

    reads = [set(recorder.read) for recorder in recorders]
    first_ranks, _ = recorders[0].probabilities(patches, ratios)
    hopeful = (first_ranks[:, columns].max(axis=1) >= CASCADE_FLOOR) | always
    assert CASCADE_FULL == 1 and reads[0] == {patch.tobytes() for patch in patches}
    for read in reads[1:-1]:
        assert read == {patch.tobytes() for patch in patches[hopeful]}
    assert reads[-1] <= reads[-2]
    assert hopeful[: len(drawn)].any() and not hopeful[len(drawn) :].all()
    # The drawn seven, read by every network, reads as their average.
    seven = int(np.argmax(full_ranks[: len(drawn), ensemble.ranks.index("7")]))
    assert full_ranks[seven, ensemble.ranks.index("7")] > 0.5
    np.testing.assert_allclose(ranks[seven], full_ranks[seven], atol=1e-6)


def test_a_pair_is_rescued_only_where_the_network_reads_its_card_as_surely_as_asked() -> None:
    photo = table(500, 500)
    paste(photo, draw_card("7", "hearts", 1.3), (250, 250), 30.0)
    ink, pairs = _proposals(photo)
    assert ink.darkness is not None
    nothing, suit_like = np.zeros(len(pairs)), np.ones(len(pairs))

    def rescued(sure: float) -> np.ndarray:
        assert ink.darkness is not None
        darkness = ink.darkness
        return _read_whole(
            ink, darkness, pairs, "standard", nothing, 0.4, suit_like, photo, COLOURS, None, 0.2, sure
        ).scores

    scores = rescued(0.5)
    assert len(scores) and (scores >= 0.5).all()
    assert len(rescued(float(scores.max()) + 1e-3)) == 0


def test_after_calibration_a_rescue_passes_at_its_own_threshold_below_the_pass_score(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Two blots no glyph reader reads; the network (a stand-in here) reads them as the
    # seven of hearts 0.7 surely: above the calibrated rescue threshold, below the glyph
    # readers' calibrated pass score.  It used to need that pass score too.
    import vision.read as read
    from vision.profile import DeckProfile

    assert read.CALIBRATED_WHOLE_SURE <= 0.7 < read.MIN_PAIR_SCORE
    photo = table(300, 300)
    cv2.rectangle(photo, (80, 60), (220, 250), (235, 235, 235), -1)
    cv2.circle(photo, (110, 100), 9, (40, 40, 200), -1)
    cv2.circle(photo, (110, 130), 7, (40, 40, 200), -1)
    ink, pairs = _proposals(photo)
    assert pairs
    seven, hearts = GAME_RANKS["standard"].index("7"), GAME_SUITS["standard"].index("hearts")

    def stand_in(*args: object, **kwargs: object) -> read.WholeReadings:
        every = np.arange(len(pairs))
        return read.WholeReadings(
            vetoed=every[:0],
            rescued=every[:1],
            ranks=np.array([seven]),
            suits=np.array([hearts]),
            scores=np.array([0.7]),
            units=np.array([20.0]),
        )

    monkeypatch.setattr(read, "_read_whole", stand_in)
    profile = DeckProfile("standard", exemplars=np.zeros((1, FEATURE_LENGTH), np.float32), labels=("7",))
    readings = read.read_pairs(ink, pairs, "standard", profile, photo)
    assert [(r.rank, r.suit, round(r.score, 3), r.whole) for r in readings] == [("7", "hearts", 0.7, True)]
