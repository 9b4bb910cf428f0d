"""Loading variants: the rules among several knobs (a hand that can never be laid out, no meld that
fits), each said at the knob that makes it so, in whichever file or base gave it."""

from __future__ import annotations

from pathlib import Path

from test_loader import errors, write

from kalooki.loader import load_variant


def test_cross_field_errors_point_at_the_most_specific_source(tmp_path: Path) -> None:
    base = write(tmp_path, "base.yaml", "max_players: 8\njokers: 4\n")
    top = write(tmp_path, "top.yaml", "extends: base.yaml\ndecks: 2\nhand_size: 13\njokers: 0\n")
    (line,) = errors(load_variant, top)
    # Within one file, the knob the rule is named after (hand_size) is the one pointed at.
    assert line.startswith(f"{top}:3:12: hand_size: max_players * hand_size + 1 = 8 * 13 + 1 = 105")
    (line,) = errors(load_variant, base, ["jokers=0"])
    assert line.startswith("--set:1:8: jokers: max_players * hand_size + 1")
    (line,) = errors(load_variant, "classic", ["max_players=8", "jokers=0"])
    assert line.startswith("--set:1:13: max_players: ")
    # Two rules are named after set_maximum; distinct suits' four involves neither decks nor jokers: the
    # file's set_maximum is the one to mend, not the --set that changed the decks.
    five = write(tmp_path, "five.yaml", "set_maximum: 5\n")
    (line,) = errors(load_variant, five, ["decks=3"])
    assert line.startswith(f"{five}:1:14: set_maximum: set_maximum (5) needs set_suits: may_repeat")
    (line,) = errors(load_variant, five, ["set_suits=may_repeat", "jokers=0", "decks=1", "max_players=3"])
    assert line == (
        "--set:1:11: set_suits: set_maximum (5) can never be reached: with set_suits: may_repeat, 1 deck and "
        f"0 jokers a set holds at most 4 cards; set_maximum: 5 comes from {five}"
    )


def test_no_meld_fits_is_said_at_the_knob_that_makes_it_so(tmp_path: Path) -> None:
    two = write(tmp_path, "two.yaml", "hand_size: 2\nopening_threshold: 0\ngoing_out: discard_optional\n")
    assert load_variant(two).hand_size == 2
    (line,) = errors(load_variant, two, ["going_out=discard_required"])
    assert line == (
        "--set:1:11: going_out: hand_size (2) leaves no meld to lay: with the card drawn a hand holds "
        f"3 cards, one of them kept to discard, and a meld needs at least 3; hand_size: 2 comes from {two}"
    )
    (line,) = errors(load_variant, "classic", ["hand_size=1"])
    assert line.startswith("--set:1:11: hand_size: hand_size (1) leaves no meld to lay")


def test_a_hand_that_can_never_be_laid_out_is_refused(tmp_path: Path) -> None:
    # Sets of exactly 3 and runs of all 13 take no card once laid: 14 cards are no sum of 3s and 13s,
    # and every hand ran to the turn limit; validate said ok.
    rules = "set_suits: may_repeat\nset_maximum: 3\ndecks: 2\nrun_minimum: 13\nhand_size: 14\n"
    rules += "opening_threshold: 0\n"
    family = write(tmp_path, "family.yaml", rules)
    (line,) = errors(load_variant, family)
    assert line == (
        f"{family}:5:12: hand_size: hand_size (14) can never be laid out: with sets of exactly 3 cards "
        "(set_maximum 3) and runs of all 13 (run_minimum 13) no meld can take another card, so a hand lays "
        "whole melds of 3 and 13 cards, and going out (going_out: discard_required) lays 14, no sum of them"
    )
    # Laying the last card too lays 15, five sets; thirteen cards are one run; a set of four may grow.
    for fixed in ("going_out=meld_required", "going_out=discard_optional", "hand_size=13", "set_maximum=4"):
        assert load_variant(family, [fixed]).hand_size in (13, 14)
    assert load_variant(family, ["turn_discard=optional"]).hand_size == 14  # a hand that grows


def test_which_counts_going_out_lays_decides_whether_a_hand_can_be_laid_out(tmp_path: Path) -> None:
    # Eight cards are no sum of 3s and 13s, nine are three sets: a hand of 8 goes out only where going
    # out may lay the last card too (one more, not one less or two more).
    rules = "set_suits: may_repeat\nset_maximum: 3\ndecks: 2\nrun_minimum: 13\nhand_size: 8\n"
    rules += "opening_threshold: 0\n"
    family = write(tmp_path, "family.yaml", rules)
    (line,) = errors(load_variant, family)
    assert line.endswith("going out (going_out: discard_required) lays 8, no sum of them")
    for going_out in ("meld_required", "discard_optional"):
        assert load_variant(family, [f"going_out={going_out}"]).hand_size == 8


def test_a_hand_of_one_card_may_grow_to_open_where_a_turn_need_not_discard() -> None:
    # Each turn may keep its card: the hand grows until it holds 51 points of melds.
    variant = load_variant("classic", ["turn_discard=optional", "hand_size=1"])
    assert (variant.hand_size, variant.opening_threshold) == (1, 51)


def test_cross_field_error_for_knobs_all_from_bases(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "scoring: winner_collects\n")
    write(tmp_path, "b.yaml", "elimination: true\n")
    top = write(tmp_path, "top.yaml", "extends: [a.yaml, b.yaml]\n")
    # Each base is valid alone (`validate b.yaml` says ok): the clash is said where top.yaml puts them
    # together, naming both, not in b.yaml, with "write elimination: false here" sending the author there.
    (line,) = errors(load_variant, top)
    assert line == (
        f"{top}:1:10: extends: elimination needs scoring: penalty (with winner_collects the first to "
        f"goal_score wins); elimination: true comes from {tmp_path}/b.yaml (or write elimination: false "
        f"here); scoring: winner_collects comes from {tmp_path}/a.yaml"
    )
    # One base that breaks the rule alone is the file to mend.
    alone = write(tmp_path, "alone.yaml", "scoring: winner_collects\nelimination: true\n")
    top = write(tmp_path, "top2.yaml", f"extends: [{alone.name}]\n")
    (line,) = errors(load_variant, top)
    assert line.startswith(f"{alone}:2:14: elimination: elimination needs scoring: penalty")
