"""Builds and joker swaps listed from the hand, the table and the turn are the engine's own.

:func:`kalooki.table_plays.swap_verdict` decides most swaps without trying them on a game. On every
play-phase position of seeded games, under the built-in variants and knobs that make swaps owe
something, each swap a hand could offer a meld is both judged and tried with ``Game.check``: where the
verdict speaks it must agree. The lists ``Game.legal_swaps`` and ``LegalView.swaps`` give must equal the
lists made by trying every candidate, as they were made before the verdict existed; and the builds
``legal_builds`` remembers per meld must be those every candidate tried with ``build`` gives, and
``LegalView.layings`` must list what iterating the view lists, less draws and discards.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import cache
from itertools import combinations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kalooki import rules, table_plays
from kalooki.bots import make_bot
from kalooki.cards import JOKER, Card, format_card, format_cards, parse_cards
from kalooki.cardstate import CardState
from kalooki.driver import ask_bot, play_turn
from kalooki.engine import Game
from kalooki.gamestate import TurnState
from kalooki.joker_layers import BY_LAYER
from kalooki.loader import builtin_variant_names, builtin_variant_path, load_variant
from kalooki.melds import MeldError, TableMeld, build, make_meld
from kalooki.moves import Build, Meld, Swap
from kalooki.rules import may_release_jokers
from kalooki.table_plays import legal_builds
from kalooki.variant import Variant
from kalooki.view import LegalView

KNOBS: dict[str, dict[str, object]] = {
    "must-meld-freed": {"released_joker_must_be_melded": True},
    "meld-at-once": {"discard_draw": "meld_at_once"},
    "others-only": {"joker_taker": "other_players", "set_joker_release": "any_missing_suit"},
    "not-the-layer": {"joker_taker": "anyone_but_layer", "set_joker_release": "any_missing_suit"},
    "before-opening": {"joker_release_requires_opening": False, "opening_threshold": 0},
    "books": {"set_suits": "may_repeat", "set_maximum": 5},
}
"""Classic with the knobs a swap's legality depends on turned the other way."""

GAMES = 20


@cache
def _variants() -> list[tuple[str, Variant]]:
    builtin = [(name, load_variant(builtin_variant_path(name))) for name in builtin_variant_names()]
    classic = load_variant(builtin_variant_path("classic"))
    changed = [(f"classic+{name}", classic.model_copy(update=update)) for name, update in KNOBS.items()]
    return builtin + changed


def _offers(meld: TableMeld, hand: list[Card], variant: Variant) -> list[tuple[Card, ...]]:
    """Every set of up to three distinct natural cards held that could go into ``meld``, and each single
    natural card held: more than a swap can take, so the refusals are tried too."""
    naturals = sorted({card for card in hand if card != JOKER})
    if meld.kind == "set":
        fitting = [card for card in naturals if card % 13 + 1 == meld.rank]
    else:
        fitting = [card for card in naturals if card // 13 == meld.suit]
    offers = {(card,) for card in naturals}
    for size in range(1, 4):
        offers.update(combinations(fitting, size))
    return sorted(offers)


def _tried_list(game: Game) -> list[Swap]:
    """``Game.legal_swaps`` as it was: every candidate tried with ``check``."""
    verdict = table_plays.swap_verdict
    table_plays.swap_verdict = lambda *args: None  # type: ignore[assignment]
    try:
        return game.legal_swaps()
    finally:
        table_plays.swap_verdict = verdict


def _built_list(hand: list[Card], table: list[TableMeld], variant: Variant, keep: int) -> list[Build]:
    """``legal_builds`` as it was: every candidate of every meld tried with ``build``, nothing remembered."""
    found = []
    for number, meld in enumerate(table, start=1):
        for cards, end in table_plays._build_candidates(meld, Counter(hand), variant):
            try:
                build(meld, cards, variant, end)
            except MeldError:
                continue
            if len(hand) - len(cards) >= keep:
                found.append(Build(number, cards, end))
    return found


@pytest.mark.parametrize(("name", "variant"), _variants(), ids=[name for name, _ in _variants()])
def test_swap_verdicts_agree_with_trying_the_swap(name: str, variant: Variant) -> None:
    outcomes: Counter[bool | None] = Counter()
    for seed in range(GAMES):
        count = 4 if variant.min_players <= 4 <= variant.max_players else variant.min_players
        game = Game(variant, [f"P{seat}" for seat in range(count)], seed=seed)
        bots = [make_bot("random", random.Random(seed * 7 + seat)) for seat in range(count)]
        while game.phase in ("draw", "play"):
            game.apply(ask_bot(bots[game.current], game))
            if game.phase == "play" and may_release_jokers(variant, game.opened[game.current]):
                hand = game.hands[game.current]
                keep = rules.keep(variant)
                for number, meld in enumerate(game.table, start=1):
                    if not game.may_take_joker_from(meld) or not meld.jokers:
                        continue
                    for cards in _offers(meld, hand, variant):
                        verdict = table_plays.swap_verdict(
                            meld, cards, variant, CardState.of(hand), game.turn, game.current
                        )
                        outcomes[verdict] += 1
                        if verdict is not None:
                            assert verdict == game._is_legal(Swap(number, cards)), (number, cards)
                assert list(
                    legal_builds(hand, game.hand_states[game.current], game.table, variant, keep)
                ) == (_built_list(hand, game.table, variant, keep))
                view = game.view(game.current)
                listed = [action for action in LegalView(view) if isinstance(action, (Meld, Build, Swap))]
                assert list(LegalView(view).layings()) == listed
                tried = _tried_list(game)
                assert game.legal_swaps() == tried
                assert LegalView(game.view(game.current)).swaps() == tried
            if game.phase == "play":
                play_turn(game, bots[game.current])
    # Each kind of answer was given somewhere, so the comparison above compared something.
    if variant.set_joker_release != "never" or variant.run_joker_release != "never":
        assert outcomes[False] > 0
        if variant.released_joker_must_be_melded:
            assert outcomes[None] > 0
        else:
            assert outcomes[True] > 0


@st.composite
def _position(draw: st.DrawFn, layered: bool = False) -> tuple[Game, list[tuple[int, TableMeld]]]:
    """A play-phase position with table melds holding jokers, and a turn that may owe
    the discard taken under meld_at_once or freed jokers: positions seeded games reach too rarely.
    ``layered``: only variants where who laid a joker decides who may take it."""
    _, variant = draw(
        st.sampled_from([v for v in _variants() if v[1].joker_taker == BY_LAYER or not layered])
    )
    game = Game(variant, [f"P{seat}" for seat in range(variant.min_players)], seed=draw(st.integers(0, 99)))
    melds: list[TableMeld] = []
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            rank = draw(st.integers(1, 13))
            suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=3))
            group = [(rank - 1) + 13 * suit for suit in suits]
        else:
            suit, low = draw(st.integers(0, 3)), draw(st.integers(1, 11))
            length = draw(st.integers(3, 6))
            group = [suit * 13 + (low - 1 + step) % 13 for step in range(length)]
        for index in draw(st.lists(st.integers(0, len(group) - 1), min_size=1, max_size=2, unique=True)):
            group[index] = JOKER
        group += [JOKER] * draw(st.integers(0, 1))
        try:
            meld = make_meld(group, variant, owner=draw(st.integers(0, 1)))
        except MeldError:
            continue
        if variant.joker_taker == BY_LAYER:
            # Jokers built on by either seat: the swaps that would take back the mover's own are refused.
            layers = tuple(draw(st.integers(0, 1)) for _ in range(meld.jokers))
            meld = replace(meld, joker_layers=() if set(layers) <= {meld.owner} else layers)
        melds.append(meld)
    assume(melds)
    wanted = sorted(
        {meld.stands_for(i) for meld in melds for i, card in enumerate(meld.cards) if card == JOKER}
    )
    wanted += [card for meld in melds if meld.kind == "set" for card in range(meld.rank - 1, JOKER, 13)]
    hand = draw(st.lists(st.sampled_from([*wanted, JOKER, *range(JOKER)]), min_size=1, max_size=12))
    owed_card = draw(st.sampled_from([None, JOKER, *hand]))
    game.set_hand(0, hand)
    game.current, game.phase = 0, "play"
    game.table = melds
    game.opened[0] = draw(st.booleans())
    game.turn = TurnState(
        drew="discard" if owed_card is not None else "stock",
        must_use_card=owed_card,
        must_use_limit=draw(st.integers(0, 2)),
        jokers_owed=draw(st.integers(0, 1)) if variant.released_joker_must_be_melded else 0,
    )
    return game, list(enumerate(melds, start=1))


@settings(max_examples=300, deadline=None, derandomize=True)
@given(_position())
def test_swap_verdicts_agree_with_trying_the_swap_in_made_up_positions(
    position: tuple[Game, list[tuple[int, TableMeld]]],
) -> None:
    _check_position(*position)


@settings(max_examples=150, deadline=None, derandomize=True)
@given(_position(layered=True))
def test_swaps_of_jokers_laid_by_both_seats_agree_with_trying_them(
    position: tuple[Game, list[tuple[int, TableMeld]]],
) -> None:
    """The made-up positions where jokers were laid by either seat: a swap that would take one the mover
    laid is listed by neither the verdict nor the legal listing."""
    _check_position(*position)


def _check_position(game: Game, melds: list[tuple[int, TableMeld]]) -> None:
    variant = game.variant
    assume(may_release_jokers(variant, game.opened[0]))
    hand = game.hands[0]
    for number, meld in melds:
        if not game.may_take_joker_from(meld):
            continue
        for cards in _offers(meld, hand, variant):
            verdict = table_plays.swap_verdict(meld, cards, variant, CardState.of(hand), game.turn, 0)
            if verdict is not None:
                assert verdict == game._is_legal(Swap(number, cards)), (number, cards)
    assert game.legal_swaps() == _tried_list(game)


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "low", "wrap"])
def test_a_melds_first_pieces_are_the_first_cards_of_its_builds(ace_in_runs: str) -> None:
    variant = load_variant(builtin_variant_path("classic")).model_copy(update={"ace_in_runs": ace_in_runs})
    every = Counter(range(JOKER + 1))
    melds = []
    for suit in range(4):
        for low in range(1, 14):
            for length in range(3, 15):
                group = [suit * 13 + (low - 1 + step) % 13 for step in range(length)]
                try:
                    melds.append(make_meld(group, variant, kind="run"))
                except MeldError:
                    continue
    for rank in range(1, 14):
        for suits in ([0, 1, 2], [0, 1, 2, 3], [1, 3]):
            for jokers in (0, 1):
                try:
                    melds.append(
                        make_meld([rank - 1 + 13 * suit for suit in suits] + [JOKER] * jokers, variant)
                    )
                except MeldError:
                    continue
    assert any(len(meld.cards) == 13 for meld in melds)
    for meld in melds:
        expected = 0
        for cards, _ in table_plays._build_candidates(meld, every, variant):
            if len(cards) == 1:
                expected |= 1 << cards[0]
        # A joker may start a build wherever a natural card may.
        expected |= 1 << JOKER if expected else 0
        assert table_plays._first_pieces(meld, variant) == expected, meld


RunBuild = tuple[tuple[Card, ...], str]


def _every_run_build(meld: TableMeld, hand: list[Card], variant: Variant) -> set[RunBuild]:
    """Every build onto either end of ``meld`` that ``melds.build`` accepts from ``hand``: each place
    past the end holding the natural card or a joker, in every way the hand's cards allow."""
    counts = Counter(hand)
    found: set[RunBuild] = set()
    for end in ("low", "high"):
        line: list[Card] = []
        for step in range(1, 14 - len(meld.cards) + 1):
            natural = table_plays._next_natural(meld, variant, end, step)
            if natural is None:
                break
            line.append(natural)
        for length in range(1, len(line) + 1):
            for joker_places in range(1 << length):
                outward = [JOKER if joker_places >> i & 1 else line[i] for i in range(length)]
                if any(Counter(outward)[card] > counts[card] for card in set(outward)):
                    continue
                cards = tuple(outward) if end == "high" else tuple(reversed(outward))
                try:
                    build(meld, cards, variant, end)
                except MeldError:
                    continue
                found.add((cards, end))
    return found


def test_a_joker_may_be_built_onto_a_run_for_a_card_the_hand_holds() -> None:
    variant = Variant()
    meld = make_meld(tuple(parse_cards("5H 6H 7H")), variant)
    hand = parse_cards("8H 9H JK 2C")
    listed = {
        (action.cards, action.end) for action in legal_builds(hand, CardState.of(hand), [meld], variant, 0)
    }
    # The joker as 8H, keeping 8H; and as 8H before the 9H.
    assert (tuple(parse_cards("JK")), "high") in listed
    assert (tuple(parse_cards("JK 9H")), "high") in listed
    assert listed == _every_run_build(meld, hand, variant)


@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "low", "wrap"])
def test_the_run_builds_listed_are_every_build_the_rules_accept(ace_in_runs: str) -> None:
    rng = random.Random(ace_in_runs)
    variant = Variant(ace_in_runs=ace_in_runs, jokers=4)
    pack = [card for card in range(52) for _ in range(2)] + [JOKER] * 4
    for _ in range(300):
        suit, low, length = rng.randrange(4), rng.randint(1, 11), rng.randint(3, 5)
        ranks = [(low - 1 + step) % 13 + 1 for step in range(length)]
        try:
            meld = make_meld(tuple(suit * 13 + rank - 1 for rank in ranks), variant)
        except MeldError:
            continue
        hand = rng.sample(pack, rng.randint(4, 14))
        listed = legal_builds(hand, CardState.of(hand), [meld], variant, 0)
        runs = {(action.cards, action.end) for action in listed}
        assert runs == _every_run_build(meld, hand, variant), (meld, hand)


def _made_up_melds(variant: Variant, rng: random.Random) -> list[TableMeld]:
    """Runs of every length from every low card, and sets of every rank, with jokers here and there."""
    melds = []
    for _ in range(400):
        if rng.random() < 0.6:
            suit, low, length = rng.randrange(4), rng.randint(1, 13), rng.randint(3, 13)
            group = [suit * 13 + (low - 1 + step) % 13 for step in range(length)]
            kind = "run"
        else:
            rank = rng.randint(1, 13)
            group = [rank - 1 + 13 * rng.randrange(4) for _ in range(rng.randint(1, variant.set_maximum))]
            kind = "set"
        for _ in range(rng.choice([0, 0, 1, 2])):
            group[rng.randrange(len(group))] = JOKER
        try:
            melds.append(make_meld(group, variant, owner=rng.randrange(2), kind=kind))  # type: ignore[arg-type]
        except MeldError:
            continue
    # The longest runs, which reach the end of the ranks or go round the corner.
    for low in range(1, 14):
        for length in (12, 13):
            try:
                melds.append(make_meld([(low - 1 + step) % 13 for step in range(length)], variant))
            except MeldError:
                continue
    return melds


@pytest.mark.parametrize(
    "update",
    [
        {"ace_in_runs": "high_or_low"},
        {"ace_in_runs": "high"},
        {"ace_in_runs": "low"},
        {"ace_in_runs": "wrap"},
        {"ace_in_runs": "wrap", "run_minimum": 4},
        {"set_suits": "may_repeat", "set_maximum": 5},
        {"set_suits": "may_repeat", "set_maximum": 8, "ace_in_runs": "wrap"},
    ],
    ids=str,
)
def test_remembered_builds_are_every_candidate_build_accepts(update: dict[str, object]) -> None:
    """Builds read off a meld's shape, remembered by its cards and the hand's cards that could join it,
    equal trying every candidate with ``build`` afresh, in order, for melds met again in new hands."""
    for variant in _compare_remembered_builds(update):
        # Every run's builds came from the shortcut, not from trying each candidate.
        shapes = table_plays._builds_memo(variant).by_content
        runs = [shape for (kind, *_), shape in shapes.items() if kind == "run" and shape.naturals >= 0]
        assert len(runs) > 50
        assert all(shape.reaches is not None for shape in runs)


@pytest.mark.parametrize("update", [{"ace_in_runs": "high_or_low"}, {"ace_in_runs": "wrap"}], ids=str)
def test_runs_the_shortcut_cannot_vouch_for_are_remembered_by_their_suit(
    update: dict[str, object], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(table_plays, "_run_reaches", lambda meld, variant: None)
    for variant in _compare_remembered_builds(update):
        shapes = table_plays._builds_memo(variant).by_content
        assert any(kind == "run" and shape.naturals >= 0 for (kind, *_), shape in shapes.items())


def _compare_remembered_builds(update: dict[str, object]) -> Iterator[Variant]:
    """Compare ``legal_builds`` with every candidate tried, under each built-in variant changed by
    ``update``, on made-up tables and hands, yielding each variant when compared under it (its memo
    kept only while few variants are asked about)."""
    for name in builtin_variant_names():
        variant = load_variant(builtin_variant_path(name)).model_copy(update={**update, "jokers": 4})
        rng = random.Random(f"{name}{update}")
        melds = _made_up_melds(variant, rng)
        assert any(len(meld.cards) >= 12 for meld in melds)
        assert any(meld.kind == "set" for meld in melds)
        pack = [card for card in range(52) for _ in range(2)] + [JOKER] * 4
        for _ in range(300):
            table = [TableMeld.from_json(meld.to_json()) for meld in rng.sample(melds, 3)]
            suits = {meld.suit for meld in table}
            ranks = {meld.rank % 13 for meld in table if meld.kind == "set"}
            # Hands rich in the table's suits and ranks, so most melds have builds.
            near = [card for card in pack if card // 13 in suits or (card + 1) % 13 in ranks or card == JOKER]
            hand = rng.sample(near, rng.randint(1, 10)) + rng.sample(pack, rng.randint(0, 5))
            for keep in (0, 1):
                listed = list(legal_builds(hand, CardState.of(hand), table, variant, keep))
                assert listed == _built_list(hand, table, variant, keep), (table, hand)
        yield variant


def _refusing(refused: Callable[[tuple[Card, ...], str], bool]) -> Callable[..., TableMeld]:
    """``build`` as it is, except that it refuses the builds ``refused(cards, end)`` names."""

    def refusing_build(meld: TableMeld, cards: tuple[Card, ...], variant: Variant, end: str) -> TableMeld:
        if refused(cards, end):
            raise MeldError("refused here")
        return build(meld, cards, variant, end)  # type: ignore[arg-type]

    return refusing_build


@pytest.mark.parametrize(
    ("why", "refused"),
    [
        # Two jokers past the high end refused, one and three taken: the lengths have a gap.
        ("a gap in the lengths", lambda cards, end: end == "high" and cards == (JOKER, JOKER)),
        # Jokers taken where the naturals are not: what jokers may do says nothing of the naturals.
        ("naturals refused", lambda cards, end: JOKER not in cards and len(cards) > 1),
    ],
    ids=["a gap in the lengths", "naturals refused"],
)
def test_the_shortcut_vouches_only_where_builds_answers_allow_it(
    why: str, refused: Callable[[tuple[Card, ...], str], bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rules the built-in variants do not have: where ``build`` answers so, each candidate is tried."""
    variant = Variant()
    meld = make_meld(tuple(parse_cards("5H 6H 7H")), variant)
    assert table_plays._run_reaches(meld, variant) == (
        ("high", tuple(parse_cards("8H 9H TH JH QH KH AH"))),
        ("low", tuple(parse_cards("4H 3H 2H AH"))),
    )
    monkeypatch.setattr(table_plays, "build", _refusing(refused))
    assert table_plays._run_reaches(meld, variant) is None, why


def test_the_shortcut_reaches_as_far_as_the_run_frame_lets_a_run_go() -> None:
    # Ace low only: nothing past the king, and the ace below the two.
    variant = Variant(ace_in_runs="low")
    meld = make_meld(tuple(parse_cards("JS QS KS")), variant)
    assert table_plays._run_reaches(meld, variant) == (
        ("high", ()),
        ("low", tuple(parse_cards("TS 9S 8S 7S 6S 5S 4S 3S 2S AS"))),
    )


@pytest.mark.parametrize(
    ("meld", "high", "low"),
    [
        ("JH QH KH", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH", "TH 9H 8H 7H 6H 5H 4H 3H 2H AH"),
        ("KH AH 2H", "3H 4H 5H 6H 7H 8H 9H TH JH QH", "QH JH TH 9H 8H 7H 6H 5H 4H 3H"),
    ],
)
def test_the_shortcut_goes_round_the_corner_under_wrap_to_thirteen_cards(
    meld: str, high: str, low: str
) -> None:
    # Written out by hand: the card past each end, round the corner, until the run holds every rank.
    variant = Variant(ace_in_runs="wrap")
    run = make_meld(tuple(parse_cards(meld)), variant)
    assert table_plays._run_reaches(run, variant) == (
        ("high", tuple(parse_cards(high))),
        ("low", tuple(parse_cards(low))),
    )


def test_a_swap_that_leaves_the_taken_joker_unmeldable_is_tried_not_vouched_for() -> None:
    # The joker taken from the discard pile under meld_at_once must be laid this turn. Adding both
    # missing suits to a three-card set frees its joker, which joins the hand and raises what it may
    # keep by one: the taken joker is still owed, and two jokers alone can lay nothing, the set
    # being full. The verdict must leave this swap to the game (None), which refuses it.
    classic = load_variant(builtin_variant_path("classic"))
    variant = classic.model_copy(update={"discard_draw": "meld_at_once"})
    game = Game(variant, ["P0", "P1"], seed=0)
    hand = parse_cards("7H 7S JK")
    game.set_hand(0, hand)
    game.current, game.phase = 0, "play"
    game.table = [make_meld(parse_cards("7C 7D JK"), variant, owner=1)]
    game.opened[0] = True
    game.turn = TurnState(drew="discard", must_use_card=JOKER, must_use_limit=0)
    swap = tuple(parse_cards("7H 7S"))
    assert table_plays.swap_verdict(game.table[0], swap, variant, CardState.of(hand), game.turn, 0) is None
    assert not game._is_legal(Swap(1, swap))
    assert Swap(1, swap) not in game.legal_swaps()


@pytest.mark.parametrize(("keep", "listed"), [(0, {("8H",), ("8H", "9H")}), (1, {("8H",)})])
def test_a_build_that_leaves_fewer_cards_than_the_turn_keeps_is_not_listed(
    keep: int, listed: set[tuple[str, ...]]
) -> None:
    # Two cards in hand: building both leaves none, which a turn that must end on a discard cannot do.
    variant = Variant()
    meld = make_meld(tuple(parse_cards("5H 6H 7H")), variant)
    hand = parse_cards("8H 9H")
    builds = legal_builds(hand, CardState.of(hand), [meld], variant, keep)
    assert {tuple(format_card(card) for card in action.cards) for action in builds} == listed


def test_the_builds_remembered_for_a_set_whose_suits_may_repeat_tell_one_copy_from_two() -> None:
    # Under may_repeat a second 9C is a second build card: the hand's copies of each card, not only
    # which cards it holds, pick the builds remembered for the meld.
    variant = Variant(set_suits="may_repeat", set_maximum=5)
    meld = make_meld(tuple(parse_cards("9C 9D 9H")), variant)
    # The next card up from a piece (TD beside 9D) counts for nothing, whatever the key packs beside it.
    asked = [
        ("9C 2S", ["9C"]),
        ("9C 9C 2S", ["9C", "9C 9C"]),
        ("9S 2S", ["9S"]),
        ("9C 2S", ["9C"]),
        ("9C 9D", ["9C", "9D", "9C 9D"]),
        ("TD 9D", ["9D"]),
    ]
    for text, expected in asked:
        hand = parse_cards(text)
        builds = legal_builds(hand, CardState.of(hand), [meld], variant, 0)
        assert [format_cards(action.cards) for action in builds] == expected


@pytest.mark.parametrize(
    ("meld_cards", "hands"),
    [
        ("5H 6H 7H", ["8H 9H", "8H", "8H JK", "4H 2C", "8H 9H", "8H JK JK", "4H 8H"]),
        ("9C 9D JK", ["9H", "9H 9S", "9H JK", "9S", "9H 9S"]),
    ],
    ids=["run", "set"],
)
def test_the_builds_remembered_for_one_meld_follow_the_hand(meld_cards: str, hands: list[str]) -> None:
    """Hand after hand onto the same meld, as turns go: each hand's builds are those every candidate
    tried afresh gives, whatever the hands before it left remembered."""
    variant = Variant(jokers=4)
    meld = make_meld(tuple(parse_cards(meld_cards)), variant)
    for text in hands:
        hand = parse_cards(text)
        listed = list(legal_builds(hand, CardState.of(hand), [meld], variant, 0))
        assert listed, text
        assert listed == _built_list(hand, [meld], variant, 0), text
