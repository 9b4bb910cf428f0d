"""Every built-in variant says where each rule comes from, and `kalooki rules` shows it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.loader import VariantError, builtin_variant_names, resolve_variant
from kalooki.variant import CLASSIC, KNOB_NAMES


@pytest.mark.parametrize("name", builtin_variant_names())
def test_every_rule_a_builtin_changes_from_classic_says_where_it_comes_from(name: str) -> None:
    resolved = resolve_variant(name)
    assert resolved.source
    changed = [knob for knob in KNOB_NAMES if getattr(resolved.variant, knob) != getattr(CLASSIC, knob)]
    assert [knob for knob in changed if knob not in resolved.provenance] == []
    assert all(text.strip() for text in resolved.provenance.values())


def test_classic_says_where_even_its_defaults_come_from() -> None:
    provenance = resolve_variant("classic").provenance
    # The ace: the English value table, read literally, makes it 10; the built-in follows the scoring lines.
    assert "Ace = 11" in provenance["ace_value"]
    assert "makes the ace 10" in provenance["ace_value"]
    # Taking a run's joker only after opening: read from the building rules, and where it is stated.
    assert "After laying down the initial meld" in provenance["joker_release_requires_opening"]
    assert "kalooki.co.uk" in provenance["joker_release_requires_opening"]
    assert provenance["opening_threshold"].startswith("not stated")


def test_kaluki_51_reads_taking_a_joker_after_opening_from_its_building_rule() -> None:
    # The guide's building rule covers the card that steals a joker, as the room rules' does for classic.
    said = resolve_variant("kaluki-51").provenance["joker_release_requires_opening"]
    assert said.startswith('Read from "Once a player has Melded, they are allowed to Build')
    assert '"by replacing it with another card belonging to that set"' in said
    assert "joker_release_requires_opening" not in not_stated_knobs("kaluki-51")


def rules(*args: str) -> list[str]:
    result = CliRunner().invoke(app, ["rules", *args])
    assert result.exit_code == 0, result.output
    return result.stdout.split("## Where each rule comes from\n", 1)[1].splitlines()


def test_no_sources_prints_the_rules_alone(tmp_path: Path) -> None:
    # A house file over classic printed the rules, then classic's source and some thirty of its quotes.
    path = tmp_path / "ours.yaml"
    path.write_text("extends: classic\nopening_threshold: 40\n", encoding="utf-8")
    whole = CliRunner().invoke(app, ["rules", str(path)]).stdout
    alone = CliRunner().invoke(app, ["rules", str(path), "--no-sources"]).stdout
    assert "## Where each rule comes from" in whole
    assert "## Where each rule comes from" not in alone
    assert whole.startswith(alone.rstrip("\n"))
    assert "40 points" in alone


def test_rules_mark_what_the_czech_text_does_not_state() -> None:
    lines = rules("czech-500")
    assert lines[1] == (
        'Source: the Czech "500" rummy rules (a machine translation). Rules marked *not stated* are not in '
        "it: they keep the value shown."
    )
    by_knob = {line.split("`")[1].split(":")[0]: line for line in lines if line.startswith("- `")}
    assert set(by_knob) == set(KNOB_NAMES)
    assert by_knob["opening_threshold"].startswith('- `opening_threshold: 0`: "Hráč může založit spojení')
    assert by_knob["ace_value"] == "- `ace_value: 11`: *not stated: classic's default*"
    assert by_knob["stock_exhausted"].startswith(
        '- `stock_exhausted: end_hand`: "Jakmile byla karta odhozena'
    )


def test_a_variation_inherits_its_base_texts_words() -> None:
    czech = resolve_variant("czech-300")
    assert czech.source == resolve_variant("czech-500").source
    assert czech.provenance["goal_score"].startswith('"300 Rummy')
    assert czech.provenance["joker_penalty"] == resolve_variant("czech-500").provenance["joker_penalty"]


def test_a_file_naming_its_own_source_quotes_only_it() -> None:
    romanian = resolve_variant("romanian")
    assert romanian.provenance["hand_size"].startswith('"Fiecare jucator primeste 13 carti."')
    assert "kalooki_bonus" not in romanian.provenance  # the Romanian text stops before scoring
    kalooki = next(line for line in rules("romanian") if line.startswith("- `kalooki_bonus"))
    assert kalooki == "- `kalooki_bonus: 25`: *not stated: classic's default*"


def test_changing_a_knob_drops_what_the_base_said_about_it(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("extends: czech-500\njoker_penalty: 20\n", encoding="utf-8")
    resolved = resolve_variant(path)
    assert "joker_penalty" not in resolved.provenance
    assert "goal_score" in resolved.provenance
    line = next(line for line in rules(str(path)) if line.startswith("- `joker_penalty"))
    assert line == f"- `joker_penalty: 20`: set at {path}:2:16, not from the source"
    line = next(line for line in rules("czech-500", "--set", "goal_score=600") if "goal_score" in line)
    assert line == "- `goal_score: 600`: set at --set goal_score=600, not from the source"


def test_restating_a_knob_keeps_what_the_base_said_about_it(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("extends: kalooki-40\njoker_penalty: 15\nrun_minimum: 4\n", encoding="utf-8")
    ours, base = rules(str(path)), rules("kalooki-40")
    line = next(line for line in ours if line.startswith("- `joker_penalty"))
    assert line == "- `joker_penalty: 15`: kalooki.co.uk: a joker left in hand counts 15."
    assert line in base
    line = next(line for line in ours if line.startswith("- `run_minimum"))
    assert line == f"- `run_minimum: 4`: set at {path}:3:14, not from the source"
    # So with a --set that gives the value the file already has.
    line = next(line for line in rules("kalooki-40", "--set", "joker_penalty=15") if "joker_penalty" in line)
    assert line == "- `joker_penalty: 15`: kalooki.co.uk: a joker left in hand counts 15."


def test_the_source_is_named_once_at_the_head_of_the_list(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("extends: kalooki-40\njokers: 4\n", encoding="utf-8")
    lines = rules(str(path))
    title = resolve_variant("kalooki-40").source
    assert title is not None
    assert lines[1] == f"Source: {title}. Rules marked *not stated* are not in it: they keep the value shown."
    assert [line for line in lines if title in line] == [lines[1]]
    assert f"- `jokers: 4`: set at {path}:2:9, not from the source" in lines
    assert "- `play_direction: clockwise`: *not stated: classic's default*" in lines


def test_a_file_over_two_bases_from_two_texts_names_both(tmp_path: Path) -> None:
    # The head named only the last base's text, above words quoted from the other's.
    path = tmp_path / "ours.yaml"
    path.write_text("extends: [kalooki-40, czech-500]\nelimination: false\n", encoding="utf-8")
    forty, czech = resolve_variant("kalooki-40").source, resolve_variant("czech-500").source
    lines = rules(str(path))
    assert lines[1] == (
        f"Sources: {forty}; {czech}. "
        "Rules marked *not stated* are in none of them: they keep the value shown."
    )
    assert "- `ace_value: 11`: kalooki.co.uk: an ace counts 11." in lines
    assert f"- `elimination: false`: set at {path}:2:14, not from the sources" in lines
    assert resolve_variant(str(path)).texts == (forty, czech)
    again = tmp_path / "again.yaml"
    again.write_text("extends: [kalooki-40, kalooki-40]\n", encoding="utf-8")
    assert resolve_variant(str(again)).texts == (forty,)
    own = tmp_path / "own.yaml"
    own.write_text(
        "extends: [kalooki-40, czech-500]\nelimination: false\nsource: our family\n", encoding="utf-8"
    )
    assert rules(str(own))[1].startswith("Source: our family. Rules marked *not stated* are not in it")


def test_words_given_for_several_knobs_name_the_one_a_file_changes(tmp_path: Path) -> None:
    # kalooki-40 quotes "2 decks and 2 jokers, 106 cards" for both: with 4 jokers shown bare beside
    # decks it spoke against the rulebook's 108 cards; taken away, decks read "not stated", which
    # the source does state.
    path = tmp_path / "ours.yaml"
    path.write_text("extends: kalooki-40\njokers: 4\n", encoding="utf-8")
    lines = rules(str(path))
    assert (
        "- `decks: 2`: kalooki.co.uk: 2 decks and 2 jokers, 106 cards. (said with jokers, which this "
        "variant changes)"
    ) in lines
    assert [line for line in lines if line.startswith("- `jokers: 4`")] == [
        f"- `jokers: 4`: set at {path}:2:9, not from the source"
    ]
    lower = tmp_path / "three.yaml"  # the same for the bounds of the table
    lower.write_text("extends: kalooki-40\nmin_players: 3\n", encoding="utf-8")
    assert (
        "- `max_players: 5`: kalooki.co.uk: from 2 to 5 players. (said with min_players, which this "
        "variant changes)"
    ) in rules(str(lower))
    # Words for one knob alone stay; so do shared words whose knobs all keep their values.
    assert "- `hand_size: 13`: kalooki.co.uk: 13 cards to each player, dealt clockwise." in lines
    assert "- `max_players: 5`: kalooki.co.uk: from 2 to 5 players." in lines


def test_a_file_without_a_source(tmp_path: Path) -> None:
    path = tmp_path / "ours.yaml"
    path.write_text("jokers: 4\n", encoding="utf-8")
    lines = rules(str(path))
    assert lines[1].startswith("No source is named.")
    assert f"- `jokers: 4`: set at {path}:1:9" in lines
    assert "- `decks: 2`: *not stated: classic's default*" in lines


@pytest.mark.parametrize(
    ("said", "where"),
    [
        (
            "provenance:\n  goal_scor: x\n",
            "4:3: provenance.goal_scor: 'goal_scor' is not a knob; did you mean 'goal_score'?",
        ),
        ("provenance: 5\n", "3:13: provenance: expected a mapping, got 5"),
        ("source: [1]\n", "3:9: source: expected text, got a list"),
    ],
)
def test_a_mistake_in_what_a_file_says_of_its_source_hides_no_rule_among_knobs(
    tmp_path: Path, said: str, where: str
) -> None:
    # A typo under provenance: was the file's only error; the elimination under winner_collects went unsaid.
    path = tmp_path / "ours.yaml"
    path.write_text(f"elimination: true\nscoring: winner_collects\n{said}", encoding="utf-8")
    with pytest.raises(VariantError) as caught:
        resolve_variant(str(path))
    assert [str(item) for item in caught.value.diagnostics] == [
        f"{path}:1:14: elimination: elimination needs scoring: penalty "
        "(with winner_collects the first to goal_score wins)",
        f"{path}:{where}",
    ]


# ---------------------------------------------------------------- the texts re-read (docs/rule-sources.md)

RE_READ = Path(__file__).parent.parent / "docs" / "rule-sources.md"


def re_read_sections() -> dict[str, str]:
    """The sections of docs/rule-sources.md, by each built-in variant their "### ..." heading names."""
    sections: dict[str, str] = {}
    for section in RE_READ.read_text(encoding="utf-8").split("\n### ")[1:]:
        heading = section.splitlines()[0]
        for name in re.findall(r"`([\w-]+)`", heading):
            sections[name] = section
    return sections


def named_knobs(text: str) -> set[str]:
    """The knobs written in backticks (`run_minimum` or `run_minimum: 4`) in ``text``."""
    return {token.split(":")[0] for token in re.findall(r"`([^`]+)`", text)} & set(KNOB_NAMES)


def not_stated_knobs(name: str) -> set[str]:
    """The knobs a built-in's text leaves unsaid: no provenance, or one that says "not stated"."""
    said = resolve_variant(name).provenance
    return {knob for knob in KNOB_NAMES if said.get(knob, "not stated").lower().startswith("not stated")}


def test_the_texts_re_read_cover_every_seed_variant() -> None:
    assert set(re_read_sections()) == {"classic", "kaluki-51", "romanian", "czech-500", "czech-300"}


@pytest.mark.parametrize("name", sorted(re_read_sections()))
def test_the_texts_re_read_name_every_knob_the_text_leaves_unsaid(name: str) -> None:
    # A reader of the re-read must see each rule the text is silent on, not only those that come to mind.
    section = re_read_sections()[name]
    assert sorted(not_stated_knobs(name) - named_knobs(section)) == []
    # A row whose verdict is "default" names only knobs the text leaves unsaid, and a knob shown with
    # its value as the text gives it (`going_out: discard_required`) is one the variant quotes the text for.
    verdicts = [row.split("|")[-2].strip() for row in section.splitlines() if row.count("|") >= 3]
    defaults = [verdict for verdict in verdicts if verdict.startswith("default")]
    assert sorted(set().union(*map(named_knobs, defaults)) - not_stated_knobs(name)) == []
    followed = {token.split(":")[0] for token in re.findall(r"`([^`]+: [^`]+)`", section)} & set(KNOB_NAMES)
    assert sorted(followed & not_stated_knobs(name)) == []


def test_kalooki_40_says_its_penalty_scoring_and_no_limit_a_set_goal_changes() -> None:
    """Its elimination line said "penalty points decide the game" while scoring was marked not stated,
    and quoted "the 150 limit" beside `goal_score: 200` when the goal was set."""
    assert "scoring" not in not_stated_knobs("kalooki-40")
    by_knob = {
        line.split("`")[1].split(":")[0]: line for line in rules("kalooki-40") if line.startswith("- `")
    }
    assert by_knob["scoring"] == (
        "- `scoring: penalty`: kalooki.co.uk: penalty scoring: each loser adds the cards left in hand to "
        "their total."
    )
    changed = {
        line.split("`")[1].split(":")[0]: line
        for line in rules("kalooki-40", "--set", "goal_score=200")
        if line.startswith("- `")
    }
    assert "150" not in changed["elimination"]


NOT_PLAYED = "What the source has that this variant does not play (no knob expresses it):"


def not_played(*args: str) -> list[str]:
    """The bullets `kalooki rules` lists under :data:`NOT_PLAYED`, or [] where it has no such list."""
    lines = rules(*args)
    # Over two bases: "What the sources have ...".
    heading = NOT_PLAYED if NOT_PLAYED in lines else NOT_PLAYED.replace("source has", "sources have")
    if heading not in lines:
        return []
    return [line for line in lines[lines.index(heading) + 1 :] if line.startswith("- ")]


def test_the_rulebook_lists_what_the_source_has_that_the_variant_does_not_play(tmp_path: Path) -> None:
    # The Czech text's pool, knocking and first-round rules were named only in a comment of its file and in
    # the project's docs: `kalooki rules czech-500` said nothing of them. czech-300 names no source of its
    # own, so it keeps czech-500's list; kalooki-40 names its own, so classic's payout table is not its.
    czech = not_played("czech-500")
    assert len(czech) == 4
    assert "fondu přiděleno 30 bodů" in czech[0]
    assert "no pool" in czech[0]
    assert "there is no knocking here" in czech[1]
    assert not_played("czech-300") == czech
    assert not_played("classic") == [
        '- "Payout table for ring games": the room pays each hand of a ring game in money by a table; here '
        "the penalty points add up over hands to the goal score."
    ]
    assert not_played("kalooki-40") == []
    alone = CliRunner().invoke(app, ["rules", "czech-500", "--no-sources"]).stdout
    assert "fondu" not in alone  # the list goes with the rest of where the rules come from
    own_source = tmp_path / "own.yaml"
    own_source.write_text("extends: czech-500\nsource: our table\n", encoding="utf-8")
    assert not_played(str(own_source)) == []
    own_list = tmp_path / "list.yaml"
    own_list.write_text("extends: czech-500\nnot_played: [the pool, 'knocking: we play it by voice']\n")
    assert not_played(str(own_list)) == ["- the pool", "- knocking: we play it by voice"]
    two = tmp_path / "two.yaml"
    two.write_text("extends: [classic, czech-500]\n", encoding="utf-8")
    assert not_played(str(two)) == [*not_played("classic"), *czech]
    assert resolve_variant(str(two)).not_played == (
        *resolve_variant("classic").not_played,
        *resolve_variant("czech-500").not_played,
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("not_played: 5", "list.yaml:2:13: not_played: expected a list, got 5"),
        (
            "not_played: pool, knocking",
            "list.yaml:2:13: not_played: expected a list, got 'pool, knocking': write it in brackets, "
            "[pool, knocking]",
        ),
        (
            # Texts of several words may be one sentence, which brackets would split: a line an item.
            "not_played: knocking, which the text allows",
            "list.yaml:2:13: not_played: expected a list, got 'knocking, which the text allows': write each "
            "item on a line of its own below, after '- '",
        ),
        ('not_played: [""]', "list.yaml:2:14: not_played[0]: must not be empty"),
        (
            "not_played: [ok, 3]",
            "list.yaml:2:18: not_played[1]: expected text, got 3 (put it in quotes to make it text)",
        ),
        (
            "not_playd: [the pool]",
            "list.yaml:2:1: not_playd: unknown key 'not_playd'; did you mean 'not_played'?",
        ),
    ],
)
def test_a_not_played_list_is_checked_where_it_is_written(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "list.yaml"
    path.write_text(f"extends: classic\n{line}\n", encoding="utf-8")
    with pytest.raises(VariantError) as raised:
        resolve_variant(str(path))
    assert str(raised.value).replace(str(tmp_path) + "/", "") == message


def test_a_file_naming_no_source_lists_what_it_does_not_play_as_its_own(tmp_path: Path) -> None:
    # Under "No source is named", the list was headed "What the source has that this variant does not play".
    path = tmp_path / "ours.yaml"
    path.write_text("jokers: 2\nnot_played: [the pool]\n", encoding="utf-8")
    lines = rules(str(path))
    assert lines[lines.index("What this variant does not play (no knob expresses it):") + 2] == "- the pool"
    assert not any(line.startswith("What the source") for line in lines)


@pytest.mark.parametrize("key", ["not_played", "source", "provenance"])
def test_a_set_option_of_where_rules_come_from_is_told_they_are_written_in_a_file(key: str) -> None:
    # --set not_played=x was offered min_players, a knob of another meaning.
    result = CliRunner().invoke(app, ["rules", "classic", "--set", f"{key}=x"])
    assert result.exit_code == 1
    assert result.stderr == (
        f"--set:1:1: {key}: unknown key '{key}'; --set changes the rules' knobs: where they come from is "
        "written in a variant file (source, provenance, not_played)\n"
    )
