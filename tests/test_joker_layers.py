"""Who laid each joker on the table (``joker_taker: anyone_but_layer``, kaluki-51's reading).

Seed 001: "Once played, another player may steal the Joker for his own Melds": another player than the
one who played it, wherever it lies. A joker built onto another player's meld is the meld owner's to
take, and not its builder's to take back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from kalooki_cli.render import Seating, meld_text, table_grid
from kalooki_cli.web_coach import WebCoach
from kalooki_net.view import seat_view, shadow_game
from rich.console import Console
from rules_helpers import assert_illegal, new_game, play, table_text

from kalooki.cards import JOKER, parse_card, parse_cards
from kalooki.engine import Game, StateFormatError
from kalooki.joker_layers import layers_of, swapped_layers
from kalooki.loader import resolve_variant
from kalooki.log import GameRecorder, replay
from kalooki.melds import TableMeld, make_meld, swap
from kalooki.moves import Swap, parse_move
from kalooki.savegame import Session, dump_save, load_save
from kalooki.variant import Variant


def kaluki(**knobs: Any) -> Variant:
    """kaluki-51's rules read by who laid each joker, for two players with small hands and no opening
    minimum."""
    update = {"joker_taker": "anyone_but_layer", "min_players": 2, "hand_size": 7, "opening_threshold": 0}
    return resolve_variant("kaluki-51").variant.model_copy(update={**update, **knobs})


ANN_AND_BOB = ["5H 6H 7H 8H 9H KC QC", "JK 2C 3C 4C 5C 9H KD"]
BUILT_ONTO_ANNS_RUN = (
    "draw stock",
    "meld 5H 6H 7H 8H",
    "discard KC",
    "draw stock",
    "meld 2C 3C 4C 5C",
    "build 1 JK",
)


MINE = "in this variant only another player may take a joker you laid: you laid every joker of 5H 6H 7H 8H JK"
"""bob's refusal when he tries to take back the joker he built onto ann's run."""


def built_onto_anns_run(variant: Variant) -> Game:
    """ann lays 5H 6H 7H 8H; bob opens and builds his joker onto it (standing for 9H). Both hold a 9H."""
    game = new_game(variant, ANN_AND_BOB, discard=None, stock="2S 3S 4S 5S")
    play(game, *BUILT_ONTO_ANNS_RUN)
    return game


def test_the_builder_may_not_take_back_a_joker_built_onto_another_players_meld_and_its_owner_may() -> None:
    game = built_onto_anns_run(kaluki())
    assert game.table[0].joker_layers == (1,)
    assert_illegal(
        game,
        "swap 1 9H",
        MINE,
    )
    assert game.legal_swaps() == []
    play(game, "discard KD", "draw stock")
    assert Swap(1, (parse_card("9H"),)) in game.legal_swaps()
    play(game, "swap 1 9H")
    assert table_text(game) == ["5H 6H 7H 8H 9H", "2C 3C 4C 5C"]
    assert game.table[0].joker_layers == ()
    assert game.hands[0].count(JOKER) == 1


def test_other_players_still_reads_the_melds_owner() -> None:
    """The value kaluki-51 used before keeps its meaning: not from one's own meld, whoever laid the joker."""
    game = built_onto_anns_run(kaluki(joker_taker="other_players"))
    assert game.table[0].joker_layers == ()
    play(game, "swap 1 9H")
    assert table_text(game) == ["5H 6H 7H 8H 9H", "2C 3C 4C 5C"]


def test_in_a_run_of_two_layers_each_player_may_take_only_the_other_ones_joker() -> None:
    game = new_game(
        kaluki(), ["5H JK 7H 8H 6H 9H KC", "JK 2C 3C 4C 5C 9H 6H"], discard=None, stock="2S 3S 4S 5S"
    )
    play(game, "draw stock", "meld 5H JK 7H 8H", "discard KC", "draw stock", "meld 2C 3C 4C 5C")
    play(game, "build 1 JK")
    assert game.table[0].joker_layers == (0, 1)
    assert_illegal(
        game,
        "swap 1 9H",
        "in this variant only another player may take a joker you laid: you laid the joker standing for 9H "
        "in 5H JK 7H 8H JK",
    )
    assert game.legal_swaps() == [Swap(1, (parse_card("6H"),))]
    play(game, "swap 1 6H")
    assert table_text(game)[0] == "5H 6H 7H 8H JK"
    assert game.table[0].joker_layers == (1,)


def test_a_sets_swap_takes_the_jokers_another_player_laid_first() -> None:
    variant = kaluki()
    nines = make_meld(parse_cards("9C 9D JK"), variant, owner=0)
    mixed = TableMeld("set", (*nines.cards, JOKER), 0, 9, joker_layers=(0, 1))
    swapped, freed = swap(mixed, parse_cards("9H"), variant, by=0)
    assert (freed, swapped.joker_layers, layers_of(swapped)) == (1, (), (0,))
    swapped, _ = swap(mixed, parse_cards("9H"), variant, by=1)
    assert swapped.joker_layers == (1,)
    assert swapped_layers(mixed, swapped.cards, 1, None) == (1,)


def test_a_save_and_a_log_carry_who_laid_each_joker() -> None:
    game = new_game(kaluki(), ANN_AND_BOB, discard=None, stock="2S 3S 4S 5S")
    recorder = GameRecorder(game)
    for move in BUILT_ONTO_ANNS_RUN:
        recorder.record(game, game.apply(parse_move(move)))
    data = game.to_json()
    assert data["table"][0]["joker_layers"] == [1]
    assert "joker_layers" not in data["table"][1]
    session = Session(human_seat=0, bots={1: "greedy"})
    resumed = load_save(dump_save(game, session)).game
    assert resumed.to_json() == data
    assert_illegal(resumed, "swap 1 9H", MINE)
    # The log's state digests cover the layers: a replay that laid bob's joker as ann's would not confirm.
    seen: list[Game] = []
    replay(recorder.records, on_events=lambda replayed, events: seen.append(replayed))
    assert seen[-1].table[0].joker_layers == (1,)
    assert_illegal(seen[-1], "swap 1 9H", MINE)


def test_an_old_save_without_layers_reads_its_jokers_as_the_owners() -> None:
    game = built_onto_anns_run(kaluki())
    data = json.loads(json.dumps(game.to_json()))
    del data["table"][0]["joker_layers"]
    old = Game.from_json(data)
    assert old.table[0].joker_layers == ()
    # As before the field existed: ann owns the meld, so its joker reads as hers, and bob may take it.
    play(old, "swap 1 9H")
    assert table_text(old)[0] == "5H 6H 7H 8H 9H"


@pytest.mark.parametrize(
    ("layers", "problem"),
    [
        ([1, 1], "a meld's joker layers do not match its jokers"),
        ([0], "a meld's joker layers do not match its jokers"),
        ([3], "seat"),
    ],
)
def test_a_save_with_layers_play_cannot_lead_to_is_refused(layers: list[int], problem: str) -> None:
    data = built_onto_anns_run(kaluki()).to_json()
    data["table"][0]["joker_layers"] = layers
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert problem in str(caught.value)


def test_layers_are_kept_only_where_the_rule_reads_them() -> None:
    game = built_onto_anns_run(kaluki(joker_taker="anyone"))
    assert game.table[0].joker_layers == ()
    data = built_onto_anns_run(kaluki()).to_json()
    data["variant"]["joker_taker"] = "other_players"
    with pytest.raises(StateFormatError) as caught:
        Game.from_json(data)
    assert "which joker_taker: other_players never does" in str(caught.value)


def test_the_network_view_shows_who_laid_a_joker_and_the_stand_in_game_keeps_it() -> None:
    game = built_onto_anns_run(kaluki())
    view = seat_view(game, 0)
    assert view["table"][0]["joker_layers"] == [1]
    assert "joker_layers" not in view["table"][1]
    shadow = shadow_game(json.loads(json.dumps(view)), game.variant)
    assert shadow.table == game.table


def test_the_table_and_the_browsers_coach_name_who_laid_a_joker_where_it_is_not_the_owner() -> None:
    """ann sees "laid by bob" beside the joker bob built onto her run (why bob may not take it back), and
    bob's page "laid by you"."""
    game = built_onto_anns_run(kaluki())
    seating = Seating(tuple(game.players), 0, {1: "greedy"})
    console = Console(width=100, record=True, color_system=None)
    console.print(table_grid(game, seating, letters=True))
    assert [line.rstrip() for line in console.export_text().splitlines()] == [
        "1 you 5H 6H 7H 8H JK(9H, laid by bob)",
        "2 bob 2C 3C 4C 5C",
    ]
    coach = WebCoach().coach(seat_view(game, 1), [], game.variant, {0: "greedy"}, {})
    assert coach["jokers"] == [[None, None, None, None, "9♥, laid by you"], [None, None, None, None]]
    # Where the owner laid every joker, nothing more is said than before.
    owner = built_onto_anns_run(kaluki(joker_taker="other_players"))
    assert meld_text(owner.table[0], owner.variant, layer_name=seating.name).plain == "5♥ 6♥ 7♥ 8♥ JK(9♥)"
