"""The rulebook says every knob, and the README's knob reference is generated from the model."""

from __future__ import annotations

import re
import subprocess
import sys
import typing
from pathlib import Path
from typing import Any

import pytest
from rules_helpers import new_game, play

from kalooki.cards import parse_cards
from kalooki.loader import builtin_variant_names, load_variant, load_variant_text
from kalooki.melds import MeldError, make_meld, swap
from kalooki.moves import Draw, parse_move
from kalooki.provenance import KEYS as PROVENANCE_KEYS
from kalooki.rulebook import (
    README_BEGIN,
    README_END,
    ace_words,
    key_rules,
    knob_reference_markdown,
    main,
    render_rulebook,
    update_readme,
)
from kalooki.variant import CLASSIC, DEFER_CROSS_FIELD, KNOB_NAMES, DiscardDraw, Variant

KNOB_REFERENCE = Path(__file__).parent.parent / "docs" / "variants.md"


def _other_values(name: str) -> list[Any]:
    annotation = Variant.model_fields[name].annotation
    current = getattr(CLASSIC, name)
    if annotation is bool:
        return [not current]
    if typing.get_origin(annotation) is typing.Literal:
        return [value for value in typing.get_args(annotation) if value != current]
    if current is None:
        return [1]
    return [current + 1]


@pytest.mark.parametrize("name", KNOB_NAMES)
def test_every_knob_value_changes_the_rulebook(name: str) -> None:
    base = render_rulebook(CLASSIC)
    for value in _other_values(name):
        variant = Variant.model_validate({name: value}, context={DEFER_CROSS_FIELD: True})
        assert render_rulebook(variant) != base, f"{name}: {value} is not in the rulebook"


def test_winner_collects_changes_the_kalooki_sentence() -> None:
    text = render_rulebook(load_variant("kaluki-51"))
    assert "takes 25 points from every other player's score" in text
    assert "first player to reach 250 points wins" in text
    assert "even if you also built on the table" in text


def test_the_rulebook_says_what_the_engine_does_at_the_edges() -> None:
    # A three-card set with two jokers gives one up for two missing suits (tests/test_rules_jokers.py), and
    # under end_hand the player who drew the last stock card may still go out and score
    # (tests/test_rules_turn_knobs.py): the rulebook must not say the hand ends at once, unscored.
    classic = render_rulebook(CLASSIC)
    assert "A three-card set with two jokers gives up one of them when two of its missing suits" in classic
    # Under the online room's rule (three_card_set) TH TC JK JK keeps both jokers for good; under
    # all_missing_suits it gives up both for TD TS, and nothing for one of them (tests/test_rules_jokers.py).
    assert "No other set gives up a joker: a four-card set keeps its jokers for good." in classic
    assert "gives up both" not in classic
    every = render_rulebook(load_variant("classic", ["set_joker_release=all_missing_suits"]))
    assert "a four-card set with two jokers gives up both for its two missing suits" in every
    assert "One card alone frees nothing." in every
    czech = render_rulebook(load_variant("czech-500"))
    assert "the player who drew its last card finishes that turn" in czech
    assert "unless that player went out in it, nobody scores for the hand" in czech
    assert "ends at once and nobody scores" not in czech
    # czech-500 never frees a joker (tests/test_builtin_sources.py): nobody "may take a joker from any meld".
    assert "Nobody ever takes a joker back from the table." in czech
    assert "may take a joker" not in czech
    assert "A joker you take" not in czech


@pytest.mark.parametrize("name", builtin_variant_names())
def test_builtin_rulebooks(name: str) -> None:
    text = render_rulebook(load_variant(name))
    assert text.startswith(f"# {name}\n")
    assert "## Scoring" in text
    assert "_" not in text.replace(name, ""), "knob names like winner_collects should not leak into prose"


def test_docs_knob_reference_is_current() -> None:
    text = KNOB_REFERENCE.read_text(encoding="utf-8")
    command = "make docs (python -m kalooki.rulebook --write-readme docs/variants.md)"
    assert update_readme(text) == text, (
        f"The knob reference in {KNOB_REFERENCE} is stale; regenerate it with: {command}"
    )


def test_make_docs_writes_the_knob_reference_where_it_lives() -> None:
    makefile = (KNOB_REFERENCE.parent.parent / "Makefile").read_text(encoding="utf-8")
    assert "-m kalooki.rulebook --write-readme docs/variants.md" in makefile


def test_knob_reference_lists_every_field() -> None:
    table = knob_reference_markdown()
    for name in Variant.model_fields:
        assert f"| `{name}` |" in table
    assert "| `decks` | 1-4 | `2` |" in table
    assert "| `elimination` | `true`, `false` | `false` |" in table


def test_knob_reference_lists_the_keys_that_say_where_rules_come_from() -> None:
    # It says it lists every key a variant file may hold: source and provenance are keys of one too.
    rows = {row.split(" | ")[0].strip("|` "): row for row in knob_reference_markdown().splitlines()[2:]}
    assert rows["source"].startswith("| `source` | text | (none) | The rule text this variant follows")
    assert rows["provenance"].startswith(
        "| `provenance` | a mapping of knob names to text | (none) | For each"
    )
    assert rows["source"].endswith(" See [where the rules come from](rule-sources.md). |")
    # Under may_repeat a set's joker is freed otherwise than by missing suits, which there are none of.
    assert (
        "Under set_suits: may_repeat no suit is missing and a card of the set's rank in any suit serves: "
        "three_card_set frees one joker of a three-card set for two such cards put in together; "
        "all_missing_suits frees jokers only for cards put in together that take the set past set_maximum "
        "cards, as many as they take it past (one card alone frees none); any_missing_suit frees one per "
        "card. Each way a full set with a single joker is closed for good. |"
    ) in rows["set_joker_release"]


def test_readme_tool(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{README_BEGIN}\nstale\n{README_END}\nafter\n", encoding="utf-8")
    assert main(["--check-readme", str(readme)]) == 1
    assert "--write-readme" in capsys.readouterr().err
    assert main(["--write-readme", str(readme)]) == 0
    assert main(["--check-readme", str(readme)]) == 0
    assert readme.read_text(encoding="utf-8").endswith("<!-- knob-reference:end -->\nafter\n")
    (tmp_path / "plain.md").write_text("no markers\n", encoding="utf-8")
    assert main(["--check-readme", str(tmp_path / "plain.md")]) == 1


def test_a_set_of_another_size_is_told_how_its_jokers_are_freed() -> None:
    # The words spoke of three- and four-card sets whatever set_maximum was; the engine frees what
    # would take a set past its largest size.
    fives = load_variant(
        "classic", ["set_maximum=5", "set_suits=may_repeat", "set_joker_release=all_missing_suits"]
    )
    text = " ".join(render_rulebook(fives).split())
    assert (
        "Two or more cards of that rank put in together free as many of a set's jokers as would take it "
        "past 5 cards; one card alone frees nothing. A full set (5 cards) with a single joker is closed"
    ) in text
    assert "three-card set" not in text
    set_of_four = make_meld(parse_cards("7H 7S JK JK"), fives)
    assert swap(set_of_four, tuple(parse_cards("7D 7C")), fives)[1] == 1  # 4 + 2 is one past 5
    with pytest.raises(MeldError):
        swap(set_of_four, tuple(parse_cards("7D")), fives)  # one card alone frees nothing
    full = make_meld(parse_cards("7H 7S 7D 7C JK"), fives)
    with pytest.raises(MeldError, match="closed"):
        swap(full, tuple(parse_cards("7H")), fives)
    # Under the online room's rule only a three-card set gives a joker up, whatever the largest set.
    threes = load_variant("classic", ["set_maximum=5", "set_suits=may_repeat"])
    text = " ".join(render_rulebook(threes).split())
    assert (
        "A three-card set gives up one of its jokers for two cards of that rank put in together; one card "
        "alone frees nothing. No other set gives up a joker."
    ) in text
    assert swap(make_meld(parse_cards("7H JK JK"), threes), tuple(parse_cards("7H 7C")), threes)[1] == 1
    with pytest.raises(MeldError, match="keeps its jokers for good"):
        swap(set_of_four, tuple(parse_cards("7D 7C")), threes)
    threes_at_most = load_variant("classic", ["set_maximum=3", "set_suits=may_repeat"])
    assert "A joker in a set stays there for good: a set holds at most three cards." in (
        " ".join(render_rulebook(threes_at_most).split())
    )


def test_a_pack_without_jokers_or_of_one_deck_is_not_told_of_what_it_lacks() -> None:
    # With jokers: 0 the rulebook kept its whole "Jokers on the table" section and counted jokers toward
    # an opening; with decks: 1 and set_suits: may_repeat it said "two packs hold two of each card".
    plain = " ".join(render_rulebook(load_variant("classic", ["jokers=0", "max_players=3"])).split())
    assert "## Jokers on the table" not in plain
    assert "joker counting as the card it stands for" not in plain
    assert "A joker can stand for any card" not in plain
    assert "Melds on the table are never rearranged, only extended. " in plain
    assert "(Were jokers added, one left in hand would count 25 points.)" in plain
    assert "taking a joker" not in plain
    assert "without building on melds that were on the table before that turn, is going Kalooki" in plain
    one_pack = load_variant("classic", ["decks=1", "set_suits=may_repeat", "max_players=3"])
    text = " ".join(render_rulebook(one_pack).split())
    assert "two packs hold two of each card" not in text
    assert "only a joker can stand for a card the set holds" in text
    assert "## Jokers on the table" in text
    three = load_variant("classic", ["decks=3", "set_suits=may_repeat"])
    assert "(3 packs hold 3 of each card)" in render_rulebook(three)


def test_kaluki_51s_ace_examples_are_runs_of_four() -> None:
    # Its runs need four cards: "an ace may sit low (A-2-3)" named a run that cannot be laid there.
    variant = load_variant("kaluki-51")
    table = " ".join(key_rules(variant))
    assert "an ace may sit low (A-2-3-4) or high (J-Q-K-A)" in table
    book = " ".join(render_rulebook(variant).split())
    assert (
        "An ace may end a run low (A-2-3-4) or high (J-Q-K-A), but a run cannot turn the corner (K-A-2-3)."
        in book
    )
    assert "(A-2-3)" not in table + book


@pytest.mark.parametrize("run_minimum", [3, 4, 5])
@pytest.mark.parametrize("ace_in_runs", ["high_or_low", "high", "low", "wrap"])
def test_each_ace_example_is_a_run_the_rules_lay_or_refuse_as_said(
    ace_in_runs: str, run_minimum: int
) -> None:
    variant = Variant(ace_in_runs=ace_in_runs, run_minimum=run_minimum)  # type: ignore[arg-type]
    words = ace_words(variant)
    examples = re.findall(r"\(([0-9AJQK-]+)\)", words.rulebook)
    assert [len(example.split("-")) for example in examples] == [run_minimum] * len(examples)
    allowed = {
        "high_or_low": [True, True, False],
        "high": [True, False],
        "low": [True, False],
        "wrap": [True, True, True],
    }[ace_in_runs]
    for example, legal in zip(examples, allowed, strict=True):
        cards = parse_cards(" ".join(f"{rank.replace('10', 'T')}H" for rank in example.split("-")))
        if legal:
            make_meld(cards, variant)
        else:
            with pytest.raises(MeldError):
                make_meld(cards, variant)


def test_the_knob_reference_writes_each_default_as_a_file_would() -> None:
    # ace_low_value's default was written `None`, which a file copying it is refused for.
    for row in knob_reference_markdown().splitlines()[2:]:
        key, _, default = (cell.strip() for cell in row.split(" | ")[:3])
        key, default = key.strip("|` "), default.strip("`")
        if key in ("name", "description", "extends", *PROVENANCE_KEYS):  # not knobs: no default to load
            continue
        assert getattr(load_variant_text(f"{key}: {default}\n"), key) == getattr(Variant(), key), key


def test_the_knob_reference_command_checks_rewrites_and_says_what_is_wrong(tmp_path: Path) -> None:
    # The command (make docs) as it is run: a stale table is named with the command that rewrites it.
    stale = tmp_path / "variants.md"
    fresh = KNOB_REFERENCE.read_text(encoding="utf-8")
    stale.write_text(fresh.replace("| `name` |", "| `nom` |"), encoding="utf-8")
    command = [sys.executable, "-m", "kalooki.rulebook"]
    checked = subprocess.run([*command, "--check-readme", str(stale)], capture_output=True, text=True)
    assert checked.returncode == 1
    expected = f"{stale}: the knob reference is stale; regenerate it with: python -m kalooki.rulebook"
    assert checked.stderr == f"{expected} --write-readme {stale}\n"
    written = subprocess.run([*command, "--write-readme", str(stale)], capture_output=True, text=True)
    assert (written.returncode, stale.read_text(encoding="utf-8")) == (0, fresh)
    missing = subprocess.run(
        [*command, "--check-readme", str(tmp_path / "none.md")], capture_output=True, text=True
    )
    assert (missing.returncode, missing.stderr) == (1, f"{tmp_path / 'none.md'}: No such file or directory\n")


@pytest.mark.parametrize(("direction", "which"), [("clockwise", "last"), ("counter_clockwise", "second")])
def test_the_first_dealer_is_the_player_the_rulebook_names(direction: str, which: str) -> None:
    # It said "the player seated just before the first player listed" whichever way play went; played
    # counter-clockwise, ann, bob, cid, dee have bob deal the first hand, listed just after ann.
    from kalooki.engine import Game

    variant = load_variant("classic", [f"play_direction={direction}"])
    text = " ".join(render_rulebook(variant).split())
    assert (
        f"The first hand is dealt by the {which} player listed, whose turn comes just before the first "
        "player listed. The player after the dealer plays first."
    ) in text
    game = Game(variant, ["ann", "bob", "cid", "dee"], seed=1)
    assert (game.players[game.dealer], game.player) == ({"last": "dee", "second": "bob"}[which], "ann")


def test_no_sentence_tells_of_freeing_a_joker_where_none_is_ever_freed() -> None:
    # Under both releases never, the melds section said "except when a joker is freed" and going Kalooki
    # "or taking a joker from them", while the jokers section said nobody ever takes one back.
    variant = load_variant("classic", ["set_joker_release=never", "run_joker_release=never"])
    text = " ".join(render_rulebook(variant).split())
    assert "Nobody ever takes a joker back from the table." in text
    assert "Melds on the table are never rearranged, only extended. " in text
    assert "that were on the table before that turn, is going Kalooki" in text
    assert "except when a joker is freed" not in text
    assert "taking a joker" not in text
    assert not any("taking a joker" in rule for rule in key_rules(variant))
    classic = " ".join(render_rulebook(CLASSIC).split())
    assert "only extended, except when a joker is freed." in classic
    assert "before that turn or taking a joker from them, is going Kalooki" in classic


@pytest.mark.parametrize(
    ("ace", "said"),
    [
        ("high_or_low", "13 cards at most: nothing goes on A-2-3-...-K, not even an ace above the king."),
        ("wrap", "13 cards at most: it never goes all the way round to a rank it holds."),
        ("high", None),
        ("low", None),
    ],
)
def test_the_rulebook_says_a_run_holds_each_rank_once(ace: str, said: str | None) -> None:
    # "An ace may end a run low or high" led a reader to expect AH to go on AH 2H ... KH (with hand_size
    # 15 it can be laid), which the engine refuses: a run holds 13 cards at most.
    from kalooki.melds import build

    variant = load_variant("classic", [f"ace_in_runs={ace}"])
    text = " ".join(render_rulebook(variant).split())
    if said is None:
        # A run whose ace may sit at one end only is 13 cards at its longest already.
        assert "each rank once" not in text
        return
    assert f"A run holds each rank once, so {said}" in text
    whole = make_meld(parse_cards("AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"), variant)
    for card in ("AH", "JK"):
        for end in ("low", "high"):
            with pytest.raises(MeldError, match="does not fit"):
                build(whole, parse_cards(card), variant, end)


def test_a_built_ins_words_over_changed_knobs_are_followed_by_the_changes() -> None:
    # A game with --set kept kalooki-40's words ("40 to open") above rules with no minimum: the browser's
    # Rules dialog and `rules` contradicted themselves.
    changed = render_rulebook(load_variant("kalooki-40", ["opening_threshold=0", "joker_penalty=25"]))
    assert changed.splitlines()[2:5] == [
        "UK Kalooki 40 (kalooki.co.uk): 40 to open, out over 150",
        "",
        "This game differs from kalooki-40, which the line above describes: joker_penalty 25 "
        "(kalooki-40: 15), opening_threshold 0 (kalooki-40: 40).",
    ]
    # The built-in as it is, one whose description is given anew, and a file of its own words: no note.
    for variant in (
        load_variant("kalooki-40"),
        load_variant("kalooki-40", ["opening_threshold=0", "description=Our table: no minimum"]),
        load_variant_text(
            "extends: kalooki-40\ndescription: ours\nopening_threshold: 0\n", "kalooki-40.yaml"
        ),
    ):
        assert "This game differs" not in render_rulebook(variant)


def _takes_back_the_discard(rule: DiscardDraw) -> bool:
    """Whether the engine lets ann take the top discard and discard that card again in the same turn,
    before she has opened or after: QS is what she takes unopened, TH (which builds on her run) opened."""
    knobs = {"hand_size": 4, "opening_threshold": 0, "discard_draw": rule}
    unopened = new_game(knobs, ["7H 8H 9H KS", "2C 5D 9S TH"], discard="QS", stock="QD")
    opened = new_game(knobs, ["7H 8H 9H KS", "2C 5D 9S TH"], discard="3D", stock="QS QD 4C")
    play(opened, "draw stock", "meld 7H 8H 9H", "discard KS", "draw stock", "discard TH")
    for game, card in ((unopened, "QS"), (opened, "TH")):
        if Draw("discard") in game.legal_actions():
            play(game, "draw discard")
            if parse_move(f"discard {card}") in game.legal_actions():
                return True
    return False


@pytest.mark.parametrize("rule", typing.get_args(DiscardDraw))
def test_the_rulebook_says_the_discard_taken_may_be_thrown_back_where_the_engine_allows_it(
    rule: DiscardDraw,
) -> None:
    # No rule text speaks of it and many rummy tables forbid it: a player reads here that it is allowed.
    said = "the card you take may be the card you discard" in render_rulebook(Variant(discard_draw=rule))
    assert said == _takes_back_the_discard(rule)
    assert said == (rule in ("always", "after_opening", "before_opening"))
