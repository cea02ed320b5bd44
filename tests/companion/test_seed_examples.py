"""The worked examples and FAQ cases of the Tichu seeds, each as a short referee case.

Seeds (in /work/shared/seeds, Japanese): 000 = the rule book with its FAQ, 003 = a blog
explanation with numbered examples (例), 004 = a Board Game Arena explanation. The seeds
give ranks without suits; suits are chosen here so that no card repeats.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from companion.cards import parse_cards
from companion.tichu.combinations import Kind, beats, classify
from companion.tichu.referee import judge_situation, legal_plays


def verdict(play: str, *trick: str, **extra: Any) -> dict[str, Any]:
    return judge_situation({"game": "tichu", "play": play, "trick": list(trick), **extra})


def legal(play: str, *trick: str, **extra: Any) -> bool:
    result = verdict(play, *trick, **extra)
    return bool(result["legal"])


def kind_rank(cards: str) -> tuple[str, float | None] | None:
    combination = classify(parse_cards(cards))
    return None if combination is None else (combination.kind.value, combination.rank)


# --- seed 000, the rule book: the combinations a trick is led with ---------------------------


@pytest.mark.parametrize(
    ("cards", "expected"),
    [
        ("4j", ("single", 4)),  # 000: カード1枚。[4]など
        ("8j 8s", ("pair", 8)),  # 000: 同じ数字のカード2枚。[8][8]など
        ("Jj Js Qp Qt Kj Ks", ("stairs", 13)),  # 000: [J][J][Q][Q][K][K](ペア3組の例)
        ("2j 2s 2p", ("triple", 2)),  # 000: 同じ数字のカード3枚。[2][2][2]など
        ("5j 5s 5p 9t 9j", ("full_house", 5)),  # 000: フルハウス [5][5][5][9][9]
        ("4j 5s 6p 7t 8j 9s", ("straight", 9)),  # 000: 5枚以上の連番 [4]..[9]
        ("Mahjong 2j 3s 4p 5t", ("straight", 5)),  # 000: マージャン [1][2][3][4][5]
        ("2j 2s 3p 3t", ("stairs", 3)),  # 003: ステア 2233
        ("6j 6s 7p 7t 8j 8s 9p 9t", ("stairs", 9)),  # 003: ステア 66778899
        ("8j 8s 8p 8t", ("bomb", 8)),  # 000/003: 同じランクのカード4枚
        ("3s 4s 5s 6s 7s", ("bomb", 7)),  # 000/003: スートの一致する連番 (5枚以上)
    ],
)
def test_seed_combinations(cards: str, expected: tuple[str, float]) -> None:
    assert kind_rank(cards) == expected


def test_seed_000_same_combination_higher_rank() -> None:
    # 000: a single only by a higher single, a pair by a higher pair ...
    assert legal("9s", "8j") and not legal("7s", "8j")
    assert legal("9s 9p", "8j 8t") and not legal("9s", "8j 8t")
    # ... an 8-card straight only by a higher straight of exactly 8 cards ...
    eight = "2j 3j 4s 5s 6p 7p 8t 9t"
    assert legal("3s 4p 5p 6t 7j 8j 9s 10s", eight)
    assert not legal("3s 4p 5p 6t 7j 8j 9s", eight)
    assert not legal("3s 4p 5p 6t 7j 8j 9s 10s Js", eight)
    # ... a full house by a higher full house, ranked by its triple.
    assert legal("6j 6s 6p 2t 2j", "5t 5s 5p Kt Kj")


def test_seed_000_mahjong_is_the_lowest_card() -> None:
    # 000: マージャンのランクは[1]であり、デッキにおける最低のカード
    assert verdict("Mahjong")["combination"] == {"kind": "single", "rank": 1, "length": 1}
    assert legal("2j", "Mahjong") and not legal("Mahjong", "2j")


def test_seed_000_and_004_the_wish_names_no_special_card() -> None:
    # 000: 特殊カードを指定することはできない; 004: 特殊カード以外のカードの数字を指定
    for bad in ("Dragon", "Phoenix", "Mahjong", "1", "Dog"):
        with pytest.raises(ValueError, match="wish"):
            verdict("2j", "Mahjong", wish=bad)
    assert legal("8j", "Mahjong", wish="8", hand="8j 9s")
    assert legal("Aj", "Mahjong", wish="A", hand="Aj 9s")


def test_seed_000_the_dog_is_led_and_wins_nothing() -> None:
    # 000: ハウンドでトリックを取ることはできません。リードを行う際に、1枚のカードとして出します
    assert legal("Dog")
    assert verdict("Dog", "2j")["reason"] == "the Dog can only be led"
    assert classify(parse_cards("Dog 2j")) is None


def test_seed_000_phoenix_as_a_joker_but_never_in_a_bomb() -> None:
    # 000: 任意の通常カードの代用とすることができる。ただし、ボムを作るために使うことはできない
    assert kind_rank("9j 9s Phoenix") == ("triple", 9)
    assert kind_rank("9j 9s 9p Phoenix") is None
    assert kind_rank("3s 4s 5s 6s Phoenix") == ("straight", 7)  # a plain straight, no bomb


def test_seed_000_phoenix_single() -> None:
    # 000: 直前で[8]が出されていたら[8.5]として扱い、[9]以上を出さないと超えられない
    assert verdict("Phoenix", "8j")["combination"]["rank"] == 8.5
    assert not legal("8s", "8j", "Phoenix") and legal("9s", "8j", "Phoenix")
    # 000: フェニックスは[A]を超えられるが、ドラゴンを超えることはできない
    assert legal("Phoenix", "Aj")
    assert verdict("Phoenix", "Dragon")["reason"] == "nothing beats the Dragon but a bomb"
    # 000: もし、リードで出した場合は、[1.5]として扱う
    assert verdict("Phoenix")["combination"]["rank"] == 1.5


def test_seed_000_dragon() -> None:
    # 000: カード1枚としてのみプレイ可能で、[A]、あるいは[A+0.5](フェニックス使用時)を超える
    assert legal("Dragon", "Aj") and legal("Dragon", "Aj", "Phoenix")
    # ドラゴンはボムでのみ超えられます
    assert not legal("Aj", "Dragon") and legal("2j 2s 2p 2t", "Dragon")
    # 連番として使用することはできません
    assert kind_rank("10j Js Qp Kt Aj Dragon") is None
    assert kind_rank("Dragon Dragon") is None


def test_seed_000_bombs() -> None:
    # 000: 手番外を含め任意のタイミングでプレイでき、あらゆる組み合わせに優越します
    assert legal("2j 2s 2p 2t", "Aj As", turn=False)
    assert legal("2j 2s 2p 2t", "3j 4s 5p 6t 7j 8s 9p", turn=False)
    # 高いボムは低いボムを超えます: 1. カードの枚数 2. カードのランク
    assert legal("3s 4s 5s 6s 7s 8s", "Aj Ap At As", turn=False)
    assert legal("Aj As Ap At", "Kj Ks Kp Kt", turn=False)
    assert not legal("Kj Ks Kp Kt", "Aj As Ap At", turn=False)
    assert legal("2s 3s 4s 5s 6s", "Aj Ap At As", turn=False)
    # ボムはトリックのリードとしても使用できます
    assert legal("2j 2s 2p 2t")


# --- seed 000, the FAQ -------------------------------------------------------------------


def test_faq_no_bomb_on_the_dog() -> None:
    # FAQ: ハウンドに対して、ボムを仕掛けられますか? いいえ。
    assert verdict("2j 2s 2p 2t", "Dog", turn=False)["reason"] == "the Dog cannot be beaten or bombed"
    assert verdict("2j 2s 2p 2t", "Dog")["reason"] == "the Dog cannot be beaten or bombed"


def test_faq_bomb_on_your_own_trick() -> None:
    # FAQ: 自分がとれるトリックに対してもボムを使えます (the referee does not ask whose play it is)
    assert legal("2j 2s 2p 2t", "Aj", turn=False)


FAQ_PLAYER_2 = "3j 4s 5p 6t 7j 8s 9p 10t Jj Qs Kj Ks Kp Kt"


def test_faq_bomb_between_turns_after_the_mahjong_need_not_fulfil_the_wish() -> None:
    # FAQ: player 1 plays the Mahjong and wishes 8; between turns anyone may bomb without
    # fulfilling it: player 2 bombs with the four Ks before his turn.
    assert legal("Kj Ks Kp Kt", "Mahjong", hand=FAQ_PLAYER_2, wish="8", turn=False)
    # Had it been his normal turn, an 8 would be owed (8 beats the Mahjong) ... but a bomb
    # is always allowed instead.
    assert legal("Kj Ks Kp Kt", "Mahjong", hand=FAQ_PLAYER_2, wish="8")
    assert not legal("9p", "Mahjong", hand=FAQ_PLAYER_2, wish="8")


def test_faq_after_taking_the_trick_with_a_bomb_the_lead_must_fulfil_the_wish() -> None:
    # FAQ: after everyone passed, his lead of the next trick must fulfil the wish for 8.
    hand = "3j 4s 5p 6t 7j 8s 9p 10t Jj Qs"
    assert verdict("3j 4s 5p 6t 7j", hand=hand, wish="8")["reason"] == (
        "the wish for 8 must be played: you hold 8s"
    )
    assert legal("4s 5p 6t 7j 8s", hand=hand, wish="8")
    assert legal("8s", hand=hand, wish="8")


def test_faq_a_straight_flush_with_the_wished_rank_must_beat_the_bomb() -> None:
    # FAQ: another player with a straight flush bomb holding an 8 would have had to play it
    # over the bomb of Ks.
    hand = "4p 5p 6p 7p 8p 2j 9j"
    assert verdict("pass", "Mahjong", "Kj Ks Kp Kt", hand=hand, wish="8")["legal"] is False
    assert legal("4p 5p 6p 7p 8p", "Mahjong", "Kj Ks Kp Kt", hand=hand, wish="8")
    plays = legal_plays(parse_cards(hand), classify(parse_cards("Kj Ks Kp Kt")), wish=8)
    assert [play.kind for play in plays] == [Kind.BOMB]


def test_faq_the_wish_binds_only_on_the_normal_turn() -> None:
    # FAQ: そのプレイヤーの通常の手番のみです。手番外にボムでマージャンの指定を満たす必要はありません
    assert legal("2j 2s 2p 2t", "9j", hand="2j 2s 2p 2t 8s 8p 8t 8j", wish="8", turn=False)


def test_faq_the_phoenix_need_not_fulfil_the_wish() -> None:
    # FAQ: a player without the wished card need not fulfil it with the Phoenix ...
    assert legal("pass", "5j", hand="Phoenix 9s 3j", wish="8")
    assert legal("9s", "5j", hand="Phoenix 9s 3j", wish="8")
    # ... the next player who can play the wished card must, even as part of a combination of
    # the right length with the Phoenix ...
    hand = "3j 4j 5s 6p 8t Phoenix"
    assert not legal("pass", "2p 3p 4s 5t 6j", hand=hand, wish="8")
    assert legal("4j 5s 6p Phoenix 8t", "2p 3p 4s 5t 6j", hand=hand, wish="8")
    assert not legal("3j 4j 5s 6p Phoenix", "2p 3p 4s 5t 6j", hand=hand, wish="8")
    # (without the 4 there is no straight with the 8: nothing is owed)
    assert legal("pass", "2p 3p 4s 5t 6j", hand="3j 5s 6p 8t Phoenix", wish="8")
    # ... or with a bomb.
    assert not legal("pass", "Aj", hand="8j 8s 8p 8t 3j", wish="8")


def test_faq_four_of_a_kind_and_the_phoenix_is_no_full_house() -> None:
    # FAQ: [3]4枚とフェニックスでフルハウスになりますか? いいえ (a bomb and a Phoenix)
    assert kind_rank("3j 3s 3p 3t Phoenix") is None
    assert verdict("3j 3s 3p 3t Phoenix", "2j 2s 2p Aj At")["reason"] == "these cards form no combination"


def test_faq_a_straight_flush_is_never_a_plain_straight() -> None:
    # FAQ: 連番のボムを通常の連番として出すことはできますか? いいえ
    straight_flush = classify(parse_cards("4s 5s 6s 7s 8s"))
    assert straight_flush is not None and straight_flush.kind is Kind.BOMB
    # on a straight it plays as a bomb (legal, but as a bomb), never as the straight
    assert verdict("4s 5s 6s 7s 8s", "3j 4j 5j 6j 7t")["combination"]["kind"] == "bomb"


# --- seed 003: the numbered examples ------------------------------------------------------


def test_seed_003_order_of_singles() -> None:
    # 003: マージャン(1)<2<3<...<9<10<J<Q<K<A<ドラゴン
    order = [
        "Mahjong",
        "2j",
        "3j",
        "4j",
        "5j",
        "6j",
        "7j",
        "8j",
        "9j",
        "10j",
        "Jj",
        "Qj",
        "Kj",
        "Aj",
        "Dragon",
    ]
    for low, high in itertools.pairwise(order):
        assert legal(high, low) and not legal(low, high)


def test_seed_003_example_1_single() -> None:
    # 003 例1: Aさんは4を出した。Bさんは5,6,...
    assert legal("5s", "4j") and legal("6s", "4j") and not legal("3s", "4j")


def test_seed_003_example_2_stairs() -> None:
    # 003 例2: 5566 (長さ2のステア) には 6677, 7788
    assert legal("6p 6t 7p 7t", "5j 5s 6j 6s") and legal("7j 7s 8p 8t", "5j 5s 6j 6s")
    assert not legal("3p 3t 4p 4t", "5j 5s 6j 6s")


def test_seed_003_example_3_straight() -> None:
    # 003 例3: 234567 には 345678, 456789
    assert legal("3s 4s 5p 6p 7t 8t", "2j 3j 4j 5j 6j 7s")
    assert legal("4s 5s 6p 7p 8t 9t", "2j 3j 4j 5j 6j 7s")


def test_seed_003_example_4_full_house() -> None:
    # 003 例4: 66633 (強さ6) には 77722, 888JJ (3枚の部分が6より大きければよい)
    assert legal("7j 7s 7p 2j 2s", "6j 6s 6p 3j 3s")
    assert legal("8j 8s 8p Jj Js", "6j 6s 6p 3j 3s")
    assert not legal("5j 5s 5p Aj As", "6j 6s 6p 3j 3s")


def test_seed_003_example_5_bombs_out_of_turn() -> None:
    # 003 例5: ドラゴン; D 8888 (手番を割り込んで); C JJJJ; D 同じスートの34567
    assert legal("8j 8s 8p 8t", "Dragon", turn=False)
    assert legal("Jj Js Jp Jt", "Dragon", "8j 8s 8p 8t", turn=False)
    assert legal("3p 4p 5p 6p 7p", "Dragon", "8j 8s 8p 8t", "Jj Js Jp Jt", turn=False)


def test_seed_003_bomb_order() -> None:
    # 003: 1.枚数が多いほうが強い 2.枚数が同じ場合は数の最大値が高いほうが強い
    assert legal("2j 3j 4j 5j 6j 7j", "9s 10s Js Qs Ks", turn=False)
    assert legal("10s Js Qs Ks As", "9p 10p Jp Qp Kp", turn=False)
    # なおフェニックスを含むボムは認められない
    assert not legal("9s 10s Js Qs Phoenix", "2j 2s 2p 2t", turn=False)


def test_seed_003_wish_example_1() -> None:
    # 003 麻雀 例1: A 1 (wish 5); B without a 5 plays 2; C holds a 5 and must play it.
    assert legal("2j", "Mahjong", hand="2j 9s", wish="5")
    assert not legal("9s", "Mahjong", "2j", hand="5p 9s", wish="5")
    assert legal("5p", "Mahjong", "2j", hand="5p 9s", wish="5")


def test_seed_003_wish_example_2() -> None:
    # 003 例2: B plays 8; C's 5 is too low, so anything goes: C plays an A ...
    assert legal("Aj", "Mahjong", "8j", hand="5p Aj 3t", wish="5")
    # ... the wish lasts: C must lead the 5 next.
    assert not legal("3t", hand="5p 3t", wish="5")
    assert legal("5p", hand="5p 3t", wish="5")


def test_seed_003_wish_example_3() -> None:
    # 003 例3: C holds four 5s: the bomb can be played, so it must be.
    hand = "5j 5s 5p 5t Aj"
    assert not legal("Aj", "Mahjong", "8j", hand=hand, wish="5")
    assert not legal("pass", "Mahjong", "8j", hand=hand, wish="5")
    assert legal("5j 5s 5p 5t", "Mahjong", "8j", hand=hand, wish="5")


def test_seed_003_wish_example_4() -> None:
    # 003 例4: D cannot play the 5 out of turn, but may bomb 8888 out of turn; then D leads 5.
    hand = "5j 8j 8s 8p 8t 3s"
    assert verdict("5j", "Mahjong", hand=hand, wish="5", turn=False)["reason"] == (
        "only a bomb can be played out of turn"
    )
    assert legal("8j 8s 8p 8t", "Mahjong", hand=hand, wish="5", turn=False)
    assert not legal("3s", hand="5j 3s", wish="5")
    assert legal("5j", hand="5j 3s", wish="5")


def test_seed_003_dog() -> None:
    # 003 ハウンド: 最初(リード)にしか出せない; 例1: after the Dog the partner leads 55.
    assert legal("Dog") and not legal("Dog", "3j")
    assert legal("5j 5s")  # the partner's new lead: any combination


def test_seed_003_dragon_examples() -> None:
    # 003 ドラゴン 例1: 8, A, ドラゴン
    assert legal("Dragon", "8j", "Aj")
    # 例2: A, ドラゴン, 3333 ; 例3: ... 9999
    assert legal("3j 3s 3p 3t", "Aj", "Dragon", turn=False)
    assert legal("9j 9s 9p 9t", "Aj", "Dragon", "3j 3s 3p 3t", turn=False)
    assert not legal("2j 2s 2p 2t", "Aj", "Dragon", "3j 3s 3p 3t", turn=False)


def test_seed_003_phoenix_examples() -> None:
    # 003 鳳凰: 特殊カード(龍、犬、麻雀)に化けることはできない
    assert kind_rank("Mahjong Phoenix") is None
    assert kind_rank("Mahjong Phoenix 3j 4s 5p") == ("straight", 5)  # the Phoenix is the 2
    # 例1: 5, 鳳凰 (5.5), 6
    assert verdict("Phoenix", "5j")["combination"]["rank"] == 5.5
    assert legal("6j", "5j", "Phoenix")
    # 例2: 33, K+鳳凰 (KKと同じ), AA
    assert verdict("Kj Phoenix", "3j 3s")["combination"] == {"kind": "pair", "rank": 13, "length": 2}
    assert legal("Aj As", "3j 3s", "Kj Phoenix")
    # 例3: 9, A, 鳳凰 (A+0.5), 龍
    assert verdict("Phoenix", "9j", "Aj")["combination"]["rank"] == 14.5
    assert legal("Dragon", "9j", "Aj", "Phoenix")
    # 例4: 龍, 8888; 999 + 鳳凰 is no bomb, so it cannot be played.
    assert not legal("9j 9s 9p Phoenix", "Dragon", "8j 8s 8p 8t", turn=False)


# --- seed 004 -------------------------------------------------------------------------------


def test_seed_004_full_house_by_its_triple() -> None:
    # 004: 「2・2・2・8・8」には「4・4・4・3・3」 (トリプルのカードよりも強い)
    assert legal("4j 4s 4p 3j 3s", "2j 2s 2p 8j 8s")


def test_seed_004_stairs() -> None:
    # 004: 「2・2・3・3・4・4」には「3・3・4・4・5・5」
    assert legal("3p 3t 4p 4t 5j 5s", "2j 2s 3j 3s 4j 4s")


def test_seed_004_phoenix_single_on_a_9() -> None:
    # 004: 前のプレイヤーが「9」だった場合「9.5」となり、「10」よりは弱く
    assert verdict("Phoenix", "9j")["combination"]["rank"] == 9.5
    assert legal("10j", "9j", "Phoenix") and not legal("9s", "9j", "Phoenix")


def test_seed_004_bomb_order() -> None:
    # 004: 4カード < より強い4カード < ストレートフラッシュ < より強い < より連続した数の多い
    ladder = [
        "2j 2s 2p 2t",
        "Aj As Ap At",
        "3p 4p 5p 6p 7p",
        "9t 10t Jt Qt Kt",
        "4s 5s 6s 7s 8s 9s",
    ]
    combinations = [classify(parse_cards(cards)) for cards in ladder]
    for low, high in itertools.pairwise(combinations):
        assert low is not None and high is not None
        assert beats(high, low) and not beats(low, high)
    # 「龍」よりも強い
    assert legal("2j 2s 2p 2t", "Dragon", turn=False)
