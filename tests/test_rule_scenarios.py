"""Rule scenarios of the built-in variants (tests/golden/scripts/rule-*.yaml): each plays a rule whose
engine behaviour is subtle (jokers taken from the table, the discard taken, going out on a lay or a
discard, the first turn, Kalooki in one go, jokers left in hand, the stock running out) in the variants
where the rule differs, as the variant's source text has it. Beside their golden output (test_scripts),
the outcome the source text gives is stated here, so that a change to it reads as a rule changed."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pytest
from rules_helpers import recorded_run

from kalooki.cards import format_card
from kalooki.events import DrawEvent, GameEvent
from kalooki.log import replay
from kalooki.script import load_script
from kalooki.script_run import run_script

GOLDEN = Path(__file__).parent / "golden" / "scripts"


class Outcome(NamedTuple):
    winners: list[str | None]
    """Who went out in each hand played (None: nobody, or the hand is unfinished)."""
    kalooki: list[bool]
    scores: list[dict[str, int]]
    """What each hand added to each player's total."""
    refused: list[str]
    """The moves refused as the scenario expects, as written."""
    game_winner: str | None = None
    eliminated: tuple[str, ...] = ()
    ends: tuple[str | None, ...] = ()
    """Each hand's end where nobody went out (stock_exhausted, ...); empty: not checked."""
    dealers: tuple[str, ...] = ()
    """Who dealt each hand; empty: not checked."""


OUTCOMES: dict[str, Outcome] = {
    # A set's joker: both missing suits together free it, one closes the set; only after opening.
    # bob keeps the joker he took: 25 of his 41.
    "rule-set-jokers-classic": Outcome(
        winners=["ann"],
        kalooki=[False],
        scores=[{"ann": 0, "bob": 41}],
        refused=["swap 2 KD KC", "swap 1 7D", "swap 1 7C"],
    ),
    # One card of a missing suit frees a set's joker; three suits and a joker are closed; nobody takes
    # back their own joker, but ann takes the one bob built onto her run; a joker counts 25 toward the 51;
    # ann collects the others' hands.
    "rule-set-jokers-kaluki-51": Outcome(
        winners=["ann"],
        kalooki=[False],
        scores=[{"ann": 228, "bob": 0, "cid": 0, "dee": 0}],
        refused=["draw discard", "meld 2C 3C 4C 5C", "swap 1 7C", "swap 2 6C", "swap 1 7D"],
    ),
    "rule-two-joker-sets-classic": Outcome(
        winners=[None],
        kalooki=[False],
        scores=[{"ann": 0, "bob": 0}],
        refused=["swap 1 7S", "swap 1 7S 7D 7C", "swap 1 7C"],
    ),
    "rule-two-joker-sets-kaluki-51": Outcome(
        winners=[None],
        kalooki=[False],
        scores=[{"ann": 0, "bob": 0, "cid": 0, "dee": 0}],
        refused=["swap 1 7H"],
    ),
    # Hand 1: out by a discard after building on ann's melds, no Kalooki: ann pays 58, her joker 25.
    # Hand 2: Kalooki with builds on bob's own new melds: 109 + 25. 192 ends the game.
    "rule-going-out-classic": Outcome(
        winners=["bob", "bob"],
        kalooki=[False, True],
        scores=[{"ann": 58, "bob": 0}, {"ann": 134, "bob": 0}],
        refused=["build 3 6H", "end"],
        game_winner="bob",
    ),
    # Out by a build, Kaluki with builds on ann's melds: bob collects 58 + 85 + 120, each loser loses 25.
    "rule-going-out-kaluki-51": Outcome(
        winners=["bob"],
        kalooki=[True],
        scores=[{"ann": -25, "bob": 263, "cid": -25, "dee": -25}],
        refused=[],
        game_winner="bob",
    ),
    "rule-kalooki-own-swap-classic": Outcome(
        winners=["ann"],
        kalooki=[True],
        scores=[{"ann": 0, "bob": 120}],
        refused=[],
    ),
    # ann keeps her last card (end) rather than discard it, and goes out by building; she collects bob's
    # 68, his joker 15 of it.
    "rule-turns-czech-500": Outcome(
        winners=["ann"],
        kalooki=[False],
        scores=[{"ann": 68, "bob": 0}],
        refused=["draw discard", "build 1 7D", "draw discard", "swap 3 6C", "discard QC"],
    ),
    "rule-turns-kalooki-40": Outcome(
        winners=["ann"],
        kalooki=[False],
        scores=[{"ann": 0, "bob": 30}],
        refused=["draw discard", "discard 9D", "swap 1 QD QC", "discard 9D", "meld AH 2H 3H"],
    ),
    "rule-elimination-kalooki-40": Outcome(
        winners=["ann", None],
        kalooki=[True, False],
        scores=[{"ann": 0, "bob": 169, "cid": 66}, {"ann": 0, "cid": 0}],
        refused=["draw stock"],
        eliminated=("bob",),
    ),
    "rule-jokers-in-hand-house-rules": Outcome(
        winners=["ann"],
        kalooki=[True],
        scores=[{"ann": 0, "bob": 249}],
        refused=[],
        game_winner="ann",
    ),
    # ann draws the ace and deals; the deal then passes to the dealer's right: dee, then cid.
    "rule-dealing-kaluki-51": Outcome(
        winners=["bob", "ann", None],
        kalooki=[True, True, False],
        scores=[
            {"ann": -25, "bob": 266, "cid": -25, "dee": -25},
            {"ann": 323, "bob": -25, "cid": -25, "dee": -25},
            {"ann": 0, "bob": 0, "cid": 0, "dee": 0},
        ],
        refused=["draw stock"],
        dealers=("ann", "dee", "cid"),
    ),
    "rule-stock-classic": Outcome(winners=[None], kalooki=[False], scores=[{"ann": 0, "bob": 0}], refused=[]),
    "rule-stock-kalooki-40": Outcome(
        winners=[None], kalooki=[False], scores=[{"ann": 0, "bob": 0}], refused=[]
    ),
    # Hand 1 ends unscored with the stock; in hand 2 ann goes out in the turn she draws its last card.
    "rule-stock-czech-500": Outcome(
        winners=[None, "ann"],
        kalooki=[False, True],
        scores=[{"ann": 0, "bob": 0}, {"ann": 204, "bob": 0}],
        refused=[],
        ends=("stock_exhausted", None),
    ),
}

SCENARIOS = sorted(GOLDEN.glob("rule-*.yaml"))


def test_every_rule_scenario_states_its_outcome() -> None:
    assert {path.stem for path in SCENARIOS} == set(OUTCOMES)


@pytest.mark.parametrize("script", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_rule_scenario_plays_to_the_outcome_its_source_gives(script: Path) -> None:
    expected = OUTCOMES[script.stem]
    run = run_script(load_script(script))
    assert run.error is None, str(run.error)
    assert [hand.winner for hand in run.hands] == expected.winners
    assert [hand.kalooki for hand in run.hands] == expected.kalooki
    assert [hand.scores for hand in run.hands] == expected.scores
    played = run.to_json()
    assert [move["command"] for move in played.get("refused", [])] == expected.refused
    assert played["game_winner"] == expected.game_winner
    assert tuple(played["eliminated"]) == expected.eliminated
    if expected.dealers:
        assert tuple(hand.dealer for hand in run.hands) == expected.dealers
    if expected.ends:
        assert tuple(played_hand.get("end") for played_hand in played["hands"]) == expected.ends


@pytest.mark.parametrize("script", SCENARIOS, ids=[path.stem for path in SCENARIOS])
def test_rule_scenario_log_replays_to_the_same_totals(script: Path) -> None:
    """The log of each scenario, its refused moves left out, plays back through the engine to the end."""
    run, records = recorded_run(load_script(script))
    summary = replay(records)
    assert summary.records == len(records)
    assert summary.totals == run.totals


def test_stock_classic_starts_the_new_pile_with_the_last_drawers_discard() -> None:
    """The room's rules: the whole pile becomes the stock, and the discard of the player who drew the last
    card starts the new pile: bob draws the card turned up, ann then the 3C she discarded."""
    run = run_script(load_script(GOLDEN / "rule-stock-classic.yaml"))
    assert _draws(run.events) == [("ann", "3C"), ("bob", "2C"), ("ann", "3C")]


def test_stock_kalooki_40_keeps_the_top_discard_face_up() -> None:
    """kalooki-40: the pile but its top card becomes the stock: bob's 3C stays up, ann draws ann's 2C."""
    run = run_script(load_script(GOLDEN / "rule-stock-kalooki-40.yaml"))
    assert _draws(run.events) == [("ann", "2C"), ("bob", "3C"), ("ann", "2C")]


def _draws(events: list[GameEvent]) -> list[tuple[str, str]]:
    return [
        (event.player, "?" if event.card is None else format_card(event.card))
        for event in events
        if isinstance(event, DrawEvent)
    ]
