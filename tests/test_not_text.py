"""Text that is not text: bytes that are not UTF-8, and escapes that name no character (``"\\ud800"``),
in ``--set`` options, variant files, game scripts and saved rules, said in the project's words."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from pydantic import ValidationError
from typer.testing import CliRunner

from kalooki.grid import find_baseline, parse_grid
from kalooki.loader import VariantError, load_variant_text
from kalooki.script import ScriptError, load_script_text
from kalooki.set_options import parse_set_options
from kalooki.validation import rules_problem
from kalooki.variant import Variant

HALVES = "is not a character: U+D800 to U+DFFF are halves of UTF-16 pairs; write the character itself"


def test_set_options_holding_bytes_or_escapes_that_are_not_text() -> None:
    # Python reads an argument's byte that is not UTF-8 as a code of U+DC80 to U+DCFF.
    options = ["name=\udcff", "name=ab\udcffcd", "x\udce9=3", 'name="\\ud800"']
    # An escaped backslash before "ud800" is a backslash and letters: the escape after them is told.
    options.append('description="a\\\\ud800 \\U00110000"')
    with pytest.raises(VariantError) as caught:
        parse_set_options(options)
    assert str(caught.value).splitlines() == [
        "--set:1:6: name: not UTF-8 text: byte 0xFF",
        "--set:2:8: name: not UTF-8 text: byte 0xFF",
        "--set:3:2: not UTF-8 text: byte 0xE9",
        f"--set:4:7: name: \\ud800 {HALVES}",
        "--set:5:23: description: \\U00110000 is not a character: the last one is U+10FFFF",
    ]


def test_grid_options_holding_bytes_that_are_not_text() -> None:
    # The knob's part was echoed with repr ('\\udcff'); a value's is checked as --set checks it.
    with pytest.raises(VariantError) as caught:
        parse_grid(["\udcff", "jok\udcffers=1,2", "jokers=1,\udcff"])
    assert str(caught.value).splitlines() == [
        "--grid:1:1: not UTF-8 text: byte 0xFF",
        "--grid:2:4: not UTF-8 text: byte 0xFF",
        "--grid:3:10: jokers: not UTF-8 text: byte 0xFF",
    ]
    axes = parse_grid(["jokers=1,2"])
    with pytest.raises(VariantError) as baseline_caught:
        find_baseline(["jokers=1", "jokers\udcff"], axes, [])
    assert str(baseline_caught.value).splitlines() == ["--baseline:2:7: not UTF-8 text: byte 0xFF"]


def test_files_holding_an_escape_of_no_character() -> None:
    with pytest.raises(VariantError) as caught:
        load_variant_text('extends: classic\nname: "ab\\uDFFF"\n', "v.yaml")
    assert str(caught.value).splitlines() == [f"v.yaml:2:10: YAML syntax: \\uDFFF {HALVES}"]
    with pytest.raises(ScriptError) as script_caught:
        load_script_text('players: [a, "\\U00110000"]\n', "s.yaml")
    assert str(script_caught.value).splitlines() == [
        "s.yaml:1:15: YAML syntax: \\U00110000 is not a character: the last one is U+10FFFF"
    ]


def test_saved_rules_holding_half_a_character() -> None:
    # JSON reads "\ud800" as half a UTF-16 pair: a save's or a log's rules can hold one.
    rules = {"name": "a\ud800"}
    with pytest.raises(ValidationError) as caught:
        Variant.model_validate(rules)
    assert rules_problem(caught.value, rules) == (
        "variant.name: not valid text: it holds U+D800, which is not a character "
        "(U+D800 to U+DFFF are halves of UTF-16 pairs)"
    )


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        ([b"validate", b"classic", b"--set", b"name=\xff"], "--set:1:6: name: not UTF-8 text: byte 0xFF"),
        ([b"validate", b"v.yaml"], f"v.yaml:1:8: YAML syntax: \\ud800 {HALVES}"),
        # A variant's name holding such a byte is named as a --set value is, not as '\udcff'.
        (
            [b"validate", b"cl\xffassic"],
            "cl\\xffassic: unknown variant 'cl\\xffassic': not UTF-8 text: byte 0xFF",
        ),
        ([b"rules", b"\xff"], "\\xff: unknown variant '\\xff': not UTF-8 text: byte 0xFF"),
        (
            [b"play", b"cl\xffassic"],
            "cl\\xffassic: unknown variant 'cl\\xffassic': not UTF-8 text: byte 0xFF",
        ),
        ([b"validate", b"missing\xff.yaml"], "missing\\xff.yaml: no such file"),
    ],
)
def test_validate_in_a_real_process(tmp_path: Path, arguments: list[bytes], expected: str) -> None:
    (tmp_path / "v.yaml").write_text('name: "\\ud800"\n', encoding="utf-8")
    kalooki = os.fsencode(Path(sys.executable).with_name("kalooki"))
    result = subprocess.run(
        [kalooki, *arguments], capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False
    )
    assert result.returncode == 1
    assert result.stderr == f"{expected}\n"


def test_a_file_whose_name_holds_such_a_byte_is_read_and_named_readably(tmp_path: Path) -> None:
    # Linux lets a file's name hold any byte: the file is read, its default name and every message
    # spell the byte out (its name was refused as "not valid text: it holds U+DCFF").
    name = b"house\xff.yaml"
    (tmp_path / os.fsdecode(name)).write_text("extends: classic\njokers: 4\n", encoding="utf-8")
    kalooki = os.fsencode(Path(sys.executable).with_name("kalooki"))

    def run(*arguments: bytes) -> tuple[int, str, str]:
        result = subprocess.run(
            [kalooki, *arguments], capture_output=True, text=True, cwd=tmp_path, timeout=60, check=False
        )
        return result.returncode, result.stdout, result.stderr

    assert run(b"validate", name) == (0, "house\\xff.yaml: ok\n", "")
    code, shown, said = run(b"variants", b"show", name, b"--origin")
    assert (code, said) == (0, "")
    assert shown.splitlines()[:1] == ['name: "house\\\\xff"                    # the name of house\\xff.yaml']
    assert "jokers: 4                             # house\\xff.yaml:2:9" in shown.splitlines()


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (
            ["join", "\udcff", "--code", "x"],
            "Invalid value for 'HOST[:PORT]': '\\xff': not UTF-8 text: byte 0xFF",
        ),
        (
            ["join", "127.0.0.1:1", "--code", "a\udcff"],
            "Invalid value for '--code': 'a\\xff': not UTF-8 text: byte 0xFF",
        ),
        (
            ["host", "--bind", "\udcff", "--port", "0"],
            "Invalid value for '--bind': '\\xff': not UTF-8 text: byte 0xFF",
        ),
    ],
)
def test_network_arguments_holding_bytes_that_are_not_text(arguments: list[str], expected: str) -> None:
    # join crashed encoding them (a traceback); host said Python's "surrogates not allowed".
    result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {expected}"


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["\udcff"], "No such command '\\xff'."),
        (["variants", "\udcff"], "No such command '\\xff'."),
        (["play", "--x\udcff"], "No such option: --x\\xff"),
        (["rules", "classic", "extra\udcff"], "Got unexpected extra argument(s) (extra\\xff)"),
        (["play", "--players", "\udcff"], "Invalid value for '--players': '\\xff' is not a valid integer"),
        (
            ["simulate", "classic", "--games", "\x1b[2J"],
            "Invalid value for '--games' / '-n': '\\x1b[2J' is not a valid integer",
        ),
        (
            ["validate", "classic", "--format", "x\udcff\u202e"],
            "Invalid value for '--format': 'x\\xff\\u202e' is not one of 'text', 'json'.",
        ),
        # A name holding such a byte was said to hold a control character.
        (["play", "--name", "\udcff"], "Invalid value for '--name': '\\xff': not UTF-8 text: byte 0xFF"),
        (
            ["play", "--humans", "a\udcff,bob"],
            "Invalid value for '--humans': 'a\\xff': not UTF-8 text: byte 0xFF",
        ),
        (
            ["play", "--variant", "a\x1b"],
            "No such option: --variant: the variant is the first argument (kalooki play $'a\\E')",
        ),
    ],
)
def test_usage_errors_spell_what_was_typed(arguments: list[str], expected: str) -> None:
    # Click's own usage errors quoted the typed text raw: an escape sequence reached the terminal as a
    # command (clearing the screen), a right-to-left override turned the line round, and a byte 0xFF
    # showed as Python's '\udcff'.
    result = CliRunner().invoke(app, arguments, prog_name="kalooki")
    assert result.exit_code == 2
    assert result.stderr.splitlines()[-1] == f"Error: {expected}"


def test_kalooki_alone_shows_its_help_with_its_lines() -> None:
    # Click gives the group's help as a usage error when no command is typed: spelled out as what was
    # typed, its line breaks came out as '\n', all on one line, the first thing a newcomer saw.
    result = CliRunner().invoke(app, [], prog_name="kalooki")
    assert result.exit_code == 2
    lines = result.output.splitlines()
    assert lines[0] == "Usage: kalooki [OPTIONS] COMMAND [ARGS]..."
    assert lines[2] == "  Kalooki, the rummy game: house rules as YAML variant files, validated,"
    assert "\\n" not in result.output
