"""The strict YAML loader: scalars, positions, every rejection, and hostile files (its helpers for the
validators in test_yaml_validators.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kalooki.yamlio import (
    MAX_BYTES,
    Diagnostic,
    Location,
    YamlError,
    format_key_path,
    load_yaml_file,
    load_yaml_text,
    resolve_plain_scalar,
    sort_diagnostics,
)

ALIAS_BOMB = "".join(
    [
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n',
        *[f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=True)],
    ]
)


def errors_of(text: str | bytes, source: str = "f.yaml") -> list[str]:
    with pytest.raises(YamlError) as caught:
        load_yaml_text(text, source)
    return str(caught.value).splitlines()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("true", True),
        ("false", False),
        ("null", None),
        ("~", None),
        ("", None),
        ("0", 0),
        ("42", 42),
        ("-7", -7),
        ("+3", 3),
        ("1.5", 1.5),
        ("-0.25", -0.25),
        ("1.5e+3", 1500.0),
        # Null and NULL are null in YAML 1.1 and 1.2 alike (and so in editors).
        ("Null", None),
        ("NULL", None),
        # YAML 1.1 would turn each of these into a boolean, a number or a date; here they are text.
        ("yes", "yes"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("True", "True"),
        ("FALSE", "FALSE"),
        ("0250", "0250"),
        ("0o17", "0o17"),
        ("0x1F", "0x1F"),
        ("0b101", "0b101"),
        ("1:30", "1:30"),
        ("1_000", "1_000"),
        ("1e3", "1e3"),
        (".inf", ".inf"),
        ("2001-12-14", "2001-12-14"),
        ("classic", "classic"),
    ],
)
def test_plain_scalars_follow_the_strict_rules(text: str, value: object) -> None:
    assert resolve_plain_scalar(text) == value
    assert type(resolve_plain_scalar(text)) is type(value)
    document = load_yaml_text(f"key: {text}\n", "f.yaml")
    assert document.data["key"] == value
    assert type(document.data["key"]) is type(value)


def test_quoted_and_block_scalars_are_always_text() -> None:
    document = load_yaml_text("a: '42'\nb: \"true\"\nc: |\n  12\nd: >-\n  yes\n", "f.yaml")
    assert document.data == {"a": "42", "b": "true", "c": "12\n", "d": "yes"}


def test_keys_are_text_and_nested_values_load() -> None:
    document = load_yaml_text("1: a\ntrue: b\nnested:\n  list: [1, {x: null}]\n", "f.yaml")
    assert document.data == {"1": "a", "true": "b", "nested": {"list": [1, {"x": None}]}}


def test_positions_of_keys_and_values_are_one_based() -> None:
    text = "# comment\nname: x\nset:\n  opening_threshold: 40\n  players: [ann, {name: bob}]\nempty:\n"
    document = load_yaml_text(text, "game.yaml")
    assert document.location(("name",)) == Location("game.yaml", 2, 7, "name")
    assert document.key_location(("name",)) == Location("game.yaml", 2, 1, "name")
    assert document.location(("set", "opening_threshold")) == Location(
        "game.yaml", 4, 22, "set.opening_threshold"
    )
    assert document.key_location(("set", "opening_threshold")).column == 3
    assert document.location(("set", "players", 1, "name")) == Location(
        "game.yaml", 5, 25, "set.players[1].name"
    )
    # An empty value has no text of its own: it is reported at its key.
    assert document.location(("empty",)) == Location("game.yaml", 6, 1, "empty")
    # A path that is not in the document points at the nearest enclosing value.
    assert document.location(("set", "nope")).line == 4
    assert document.scalar_text(("set", "opening_threshold")) == "40"
    assert document.value(("set", "players", 0)) == "ann"
    with pytest.raises(KeyError):
        document.value(("set", "missing"))


def test_columns_count_characters_not_bytes() -> None:
    document = load_yaml_text("ä: ü\nb: [x, 日本, y]\n", "f.yaml")
    assert document.location(("b", 2)).column == 12


def test_diagnostic_format_and_json() -> None:
    diagnostic = Diagnostic("v.yaml", 3, 20, "opening_threshold", "expected a whole number")
    assert str(diagnostic) == "v.yaml:3:20: opening_threshold: expected a whole number"
    assert str(Diagnostic("v.yaml", 1, 1, "", "the file is empty")) == "v.yaml:1:1: the file is empty"
    assert str(Diagnostic("v.yaml", 0, 0, "", "no such file")) == "v.yaml: no such file"
    assert diagnostic.to_dict() == {
        "path": "v.yaml",
        "line": 3,
        "column": 20,
        "key": "opening_threshold",
        "message": "expected a whole number",
    }
    error = YamlError([diagnostic, diagnostic])
    assert str(error) == f"{diagnostic}\n{diagnostic}"
    assert isinstance(error, ValueError)


def test_sort_keeps_sources_in_first_seen_order() -> None:
    items = [Diagnostic("b", 5, 1, "", "x"), Diagnostic("a", 9, 1, "", "x"), Diagnostic("b", 2, 1, "", "x")]
    assert [(d.path, d.line) for d in sort_diagnostics(items)] == [("b", 2), ("b", 5), ("a", 9)]


def test_format_key_path() -> None:
    assert format_key_path(("set", "decks")) == "set.decks"
    assert format_key_path(("players", 0, "name")) == "players[0].name"
    assert format_key_path(()) == ""


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a: &x 1\nb: *x\n", ["f.yaml:1:4: anchor &x is not allowed", "f.yaml:2:4: alias *x is not allowed"]),
        ("a: 1\nb: 2\na: 3\n", ["f.yaml:3:1: a: duplicate key (first given on line 1): give it once"]),
        ("a:\n  b: 1\n  b: 2\n", ["f.yaml:3:3: a.b: duplicate key (first given on line 2): give it once"]),
        ("a: !!int '5'\n", ["f.yaml:1:4: tag !!int is not allowed: remove it"]),
        ("a: !custom x\n", ["f.yaml:1:4: tag !custom is not allowed: remove it"]),
        ("", ["f.yaml:1:1: the file is empty: write a key and its value on each line (key: value)"]),
        (
            "# just a comment\n",
            [
                "f.yaml:1:1: the file holds only comments: write a key and its value on each line "
                "(key: value), without a '#' before it"
            ],
        ),
        ("- a\n- b\n", ["f.yaml:1:1: expected a mapping of keys to values at the top, found a list"]),
        # Knobs noted as the points of a list got no word of how to write them.
        (
            "- jokers: 4\n- decks: 2\n",
            [
                "f.yaml:1:1: expected a mapping of keys to values at the top, found a list: "
                "write each key and its value on a line of its own, without the '- ' before it"
            ],
        ),
        ("hello\n", ["f.yaml:1:1: expected a mapping of keys to values at the top, found a string"]),
        ("42\n", ["f.yaml:1:1: expected a mapping of keys to values at the top, found a number"]),
        ("a: 1\n---\nb: 2\n", ["f.yaml:2:1: a second document starts here"]),
        ("a: 1\nb:\t2\n", ["f.yaml:2:3: tab character: write spaces instead"]),
        ("a:\n\tb: 1\n\tc: 2\n", ["f.yaml:2:1: tab character", "f.yaml:3:1: tab character"]),
        # In a comment it was told to "indent and separate with spaces", which it did neither of.
        ("a: 50  #\tgrandma says\n", ["f.yaml:1:9: tab character: write spaces instead"]),
        ("a: [1, 2\n", ["f.yaml:1:4: YAML syntax: the list that opens here with '[' is never closed"]),
        ("a: b: c\n", ["f.yaml:1:5: YAML syntax: "]),
        ("a: \x07\n", ["f.yaml:1:4: non-printable character U+0007 is not allowed"]),
        ("? [a, b]\n: 1\n", ["f.yaml:1:3: a key must be plain text, not a list or mapping"]),
        ("a: " + "9" * 51 + "\n", ["f.yaml:1:4: a: numbers of more than 50 digits are not accepted"]),
    ],
)
def test_rejections_are_positioned(text: str, expected: list[str]) -> None:
    lines = errors_of(text)
    assert len(lines) == len(expected)
    for line, start in zip(lines, expected, strict=True):
        assert line.startswith(start), line


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # Where the mistake is, not where the parser gave up (the end of the file, the next key).
        (
            'a: "never closed\nb: 2\nc: 3\n',
            '1:4: YAML syntax: the quoted text that starts here is never closed (no closing ")',
        ),
        (
            "a: 'never closed\n---\n",
            "1:4: YAML syntax: the quoted text that starts here is never closed (no closing ')",
        ),
        (
            "a: [1, 2\nb: 2\n",
            "1:4: YAML syntax: the list that opens here with '[' is never closed (no ']' before line 2)",
        ),
        (
            "a: {b: 1\n",
            "1:4: YAML syntax: the mapping that opens here with '{' is never closed "
            "(no '}' before the end of the file)",
        ),
        (
            "a:\n  - 'Jack's'\n",
            "2:10: YAML syntax: this apostrophe ends the single-quoted text: "
            "inside single quotes write it twice (Jack''s), or use double quotes",
        ),
        (
            'a: "say "hi" now"\n',
            '1:9: YAML syntax: this " ends the double-quoted text: '
            'inside double quotes write it as \\" (\\"hi), or use single quotes',
        ),
        (
            "a: 1\n b: 2\n",
            "2:2: YAML syntax: this key is indented by 1 space: top-level keys start in column 1",
        ),
        (
            "a: 1\n# b: 2\n\n  c: 3\n",
            "4:3: YAML syntax: this key is indented by 2 spaces: top-level keys start in column 1",
        ),
        (
            " a: 1\nb: 2\n",
            "1:2: YAML syntax: this key is indented by 1 space: top-level keys start in column 1",
        ),
        # A list item among keys: "did not find expected key", in PyYAML's words.
        (
            "jokers: 4\n- x\n",
            "2:1: YAML syntax: a list item where a key goes: write a list under its key, each item indented "
            "on a line of its own",
        ),
        (
            "a:\n  b: 1\n  -\n",
            "3:3: YAML syntax: a list item where a key goes: write a list under its key, each item indented "
            "on a line of its own",
        ),
        (
            "a:\n  b: 1\n    c: 2\n",
            "3:5: YAML syntax: this key is indented by 4 spaces, the key on line 2 by 2: "
            "keys of one mapping start in the same column",
        ),
        # A line with no `: ` is the place, not the next key (or a line past the end) PyYAML names.
        (
            "a: 1\ngoal_score=250\nb: 2\n",
            "2:11: YAML syntax: a key and its value are written with a colon, not '=': write goal_score: 250",
        ),
        (
            "a: 1\ngoal_score = 250  # to win\nb: 2\n",
            "2:12: YAML syntax: a key and its value are written with a colon, not '=': write goal_score: 250",
        ),
        (
            "a: 1\ngoal_score:250\n",
            "2:11: YAML syntax: a colon needs a space after it: write goal_score: 250",
        ),
        (
            "a: 1\ngoal_score 250\n",
            "2:1: YAML syntax: this line has no colon after its key: write goal_score: 250",
        ),
        (
            "a: 1\nrun minimum 4\nb: 2\n",
            "2:1: YAML syntax: this line has no colon after its key: write KEY: VALUE",
        ),
        # A colon and a space inside a plain value: "mapping values are not allowed in this context".
        (
            "a: 1\ndescription: Friday: at ours  # ours\n",
            "2:20: YAML syntax: a colon followed by a space inside a value is read as another key: "
            'put the value in quotes: description: "Friday: at ours"',
        ),
        (
            'description: Friday: "ours"\n',
            "1:20: YAML syntax: a colon followed by a space inside a value is read as another key: "
            "put the value in quotes: description: 'Friday: \"ours\"'",
        ),
        # Two files joined, the second saved with a byte order mark: "did not find expected key" at 2:2.
        (
            "a: 1\n\ufeffb: 2\n",
            "2:1: YAML syntax: a byte order mark (U+FEFF, invisible) is here; it may only begin a file: "
            "delete it",
        ),
        # A list over several lines missing a comma keeps PyYAML's words and place.
        ("a: [b,\n  c\n  [d]]\n", "3:3: YAML syntax: did not find expected ',' or ']'"),
    ],
)
def test_syntax_errors_point_at_the_mistake(text: str, expected: str) -> None:
    assert errors_of(text) == [f"f.yaml:{expected}"]


EQUALS = "YAML syntax: a key and its value are written with a colon, not '=': write"
FULL_WIDTH = "YAML syntax: '\uff1a' (U+FF1A FULLWIDTH COLON) is not the colon YAML reads after a key: write"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # A first key without its colon makes the top one text, which PyYAML reads on to a later colon.
        ("goal_score=250\njokers: 4\n", [f"1:11: {EQUALS} goal_score: 250"]),
        (
            "goal_score:250\njokers: 4\n",
            ["1:11: YAML syntax: a colon needs a space after it: write goal_score: 250"],
        ),
        (
            "goal_score 250\njokers: 4\n",
            ["1:1: YAML syntax: this line has no colon after its key: write goal_score: 250"],
        ),
        ("# ours\n# more\n\ngoal_score=250\njokers: 4\n", [f"4:11: {EQUALS} goal_score: 250"]),
        # Every such line, the top text's and those the parser meets once they are out of its way.
        (
            "goal_score=250\nhand_size = 5\njokers: 4\n",
            [f"1:11: {EQUALS} goal_score: 250", f"2:11: {EQUALS} hand_size: 5"],
        ),
        (
            "jokers: 4\ngoal_score=250\nhand_size=5\n",
            [f"2:11: {EQUALS} goal_score: 250", f"3:10: {EQUALS} hand_size: 5"],
        ),
        ("a=1\n# two\nb=2\n", [f"1:2: {EQUALS} a: 1", f"3:2: {EQUALS} b: 2"]),
        # A file written as --set options are: its top is one text over all its lines.
        (
            "jokers=4\nopening_threshold=40\n",
            [f"1:7: {EQUALS} jokers: 4", f"2:18: {EQUALS} opening_threshold: 40"],
        ),
        ("goal_score=250\n", [f"1:11: {EQUALS} goal_score: 250"]),
        # A CJK keyboard's colon looks like one: "found a string" (alone), "no colon after its key" (above
        # a line with a colon) sent the eye to a colon that is there.
        ("jokers\uff1a 4\n", [f"1:7: {FULL_WIDTH} jokers: 4"]),
        ("jokers \uff1a4\ndecks: 2\n", [f"1:8: {FULL_WIDTH} jokers: 4"]),
        ("decks: 2\njokers\uff1a 4\n", [f"2:7: {FULL_WIDTH} jokers: 4"]),
        # Prose says no key was meant.
        ("Our Friday rules\n", ["1:1: expected a mapping of keys to values at the top, found a string"]),
    ],
)
def test_every_key_without_its_colon_is_told(text: str, expected: list[str]) -> None:
    assert errors_of(text) == [f"f.yaml:{line}" for line in expected]


def test_non_utf8_bytes_are_positioned() -> None:
    assert errors_of(b"a: 1\nb: caf\xe9\n") == [
        "f.yaml:2:7: not UTF-8 text: byte 0xE9; save the file as UTF-8"
    ]


def test_utf8_bom_is_accepted() -> None:
    assert load_yaml_text("\ufeffa: 1\n".encode(), "f.yaml").data == {"a": 1}


def test_oversized_text_and_file_are_rejected_without_parsing(tmp_path: Path) -> None:
    text = "a: " + "x" * MAX_BYTES + "\n"
    assert errors_of(text) == [
        f"f.yaml:1:1: the file is {len(text)} bytes; at most 65536 bytes (64 KiB) are accepted"
    ]
    big = tmp_path / "big.yaml"
    big.write_text("# " + "x" * (10 * MAX_BYTES) + "\n", encoding="utf-8")
    with pytest.raises(YamlError, match=r"big\.yaml:1:1: the file is 655363 bytes; at most 65536"):
        load_yaml_file(big)


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(YamlError) as caught:
        load_yaml_file(tmp_path / "nope.yaml", display="nope.yaml")
    assert str(caught.value) == "nope.yaml: no such file"
    with pytest.raises(YamlError, match="is a directory"):
        load_yaml_file(tmp_path)


def test_display_name_is_used_for_files(tmp_path: Path) -> None:
    path = tmp_path / "v.yaml"
    path.write_text("a: 1\na: 2\n", encoding="utf-8")
    with pytest.raises(YamlError) as caught:
        load_yaml_file(path, display="shown.yaml")
    assert str(caught.value).startswith("shown.yaml:2:1: a: duplicate key")


# ----------------------------------------------------------------------------- hostile files


# How long these take is measured by `make bench` (bench/loader_bench.py), not asserted here: what the
# tests pin down is that nothing is expanded and the output stays small, which is what keeps them fast.


def _rejected(text: str | bytes) -> list[str]:
    with pytest.raises(YamlError) as caught:
        load_yaml_text(text, "hostile.yaml")
    return str(caught.value).splitlines()


def test_alias_bomb_is_rejected_without_expansion() -> None:
    assert len(ALIAS_BOMB.encode()) < 600
    lines = _rejected(ALIAS_BOMB)
    # Each anchor, and each alias name once: no expansion, no flood of identical lines.
    assert len(lines) == 17
    assert lines[0] == "hostile.yaml:1:4: anchor &a is not allowed: anchors and aliases are not supported"


def test_deep_nesting_is_rejected_with_one_line() -> None:
    for text in ("a: " + "[" * 60000, "a: " + "{b: " * 16000, "".join(" " * i + "a:\n" for i in range(300))):
        assert len(_rejected(text)) == 1


def test_largest_accepted_files_load() -> None:
    flow = "a: [" + ",".join("1" for _ in range(32000)) + "]\n"
    keys = "".join(f"k{i}: {i}\n" for i in range(5400))
    assert len(flow) <= MAX_BYTES
    assert len(keys) <= MAX_BYTES
    assert len(load_yaml_text(flow, "big.yaml").data["a"]) == 32000
    assert len(load_yaml_text(keys, "big.yaml").data) == 5400


def test_many_errors_are_cut_short_quickly() -> None:
    text = "".join(f"k: {i}\n" for i in range(9000))[: MAX_BYTES - 10]
    lines = _rejected(text)
    assert len(lines) == 101
    assert lines[-1] == "hostile.yaml:101:1: too many errors; stopped after 100"
