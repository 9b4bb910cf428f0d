"""``kalooki validate -``: a variant read from standard input, as an editor or a pipe gives it.

Real processes, since the command reads the input's descriptor itself (Typer's runner replaces
only ``sys.stdin``).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest


def validate(
    *args: str, given: bytes | None = b"", cwd: Path | None = None
) -> subprocess.CompletedProcess[bytes]:
    """``kalooki validate ARGS`` with ``given`` on its standard input (None: the input closed)."""
    return subprocess.run(
        [sys.executable, "-m", "kalooki", "validate", *args],
        input=given,
        stdin=subprocess.DEVNULL if given is None else None,
        capture_output=True,
        cwd=cwd,
        check=False,
    )


def test_a_good_variant_on_standard_input_is_ok() -> None:
    result = validate("-", given=b"extends: classic\nopening_threshold: 40\n")
    assert (result.returncode, result.stdout, result.stderr) == (0, b"<stdin>: ok\n", b"")


def test_its_errors_are_placed_in_stdin_and_the_other_files_still_checked(tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("extends: classic\n", encoding="utf-8")
    result = validate("-", "mine.yaml", given=b"extends: classic\nopening_treshold: 40\n", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == b"mine.yaml: ok\n"
    assert result.stderr == (
        b"<stdin>:2:1: opening_treshold: unknown key 'opening_treshold'; did you mean 'opening_threshold'?\n"
    )


def test_its_bases_are_found_from_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("extends: classic\njoker_penalty: 50\n", encoding="utf-8")
    assert validate("-", given=b"extends: ./base.yaml\n", cwd=tmp_path).returncode == 0
    missing = validate("-", given=b"extends: ./nothere.yaml\n", cwd=tmp_path)
    assert (missing.returncode, missing.stderr) == (1, b"<stdin>:1:10: extends: no such file: nothere.yaml\n")


def test_json_names_it_as_its_errors_do() -> None:
    result = validate("--format", "json", "-", given=b"extends: classic\njokers: many\n")
    report = json.loads(result.stdout)
    assert result.returncode == 1
    assert report["files"] == [{"path": "<stdin>", "valid": False}]
    assert [(item["path"], item["line"], item["key"]) for item in report["diagnostics"]] == [
        ("<stdin>", 2, "jokers")
    ]


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (b"", b"<stdin>:1:1: the file is empty: write a key and its value on each line (key: value)\n"),
        (None, b"<stdin>:1:1: the file is empty: write a key and its value on each line (key: value)\n"),
        (
            b"\xff\xfe",
            b"<stdin>:1:1: not UTF-8 text: byte 0xFF; save the file as UTF-8 "
            b"(it is UTF-16, which some editors call Unicode)\n",
        ),
        (b"y\n" * 40_000, b"<stdin>:1:1: the file is over 64 KiB; at most 64 KiB are accepted\n"),
    ],
    ids=["empty", "closed", "not-utf8", "too-big"],
)
def test_bad_input_is_one_line_and_exit_1(given: bytes | None, message: bytes) -> None:
    result = validate("-", given=given)
    assert (result.returncode, result.stdout, result.stderr) == (1, b"", message)


def test_an_endless_input_is_not_read_to_its_end() -> None:
    # `yes | kalooki validate -`: the cap stops the reading, and the writer is left to its broken pipe.
    command = [sys.executable, "-m", "kalooki", "validate", "-"]
    with subprocess.Popen(["yes"], stdout=subprocess.PIPE) as endless:
        result = subprocess.run(command, stdin=endless.stdout, capture_output=True, timeout=60, check=False)
        endless.kill()
    assert (result.returncode, result.stderr) == (
        1,
        b"<stdin>:1:1: the file is over 64 KiB; at most 64 KiB are accepted\n",
    )
