"""File names no file can have: a loop of symbolic links, a NUL character inside a name, a name too long."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from kalooki_cli.app import app
from test_hostile_saves import saved_document
from typer.testing import CliRunner

from kalooki.loader import VariantError, load_variant, load_variant_text
from kalooki.savegame import save_checksum

runner = CliRunner()


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def symlink_loop(folder: Path) -> Path:
    (folder / "loop.yaml").symlink_to(folder / "round.yaml")
    (folder / "round.yaml").symlink_to(folder / "loop.yaml")
    return folder / "loop.yaml"


@pytest.mark.parametrize(
    "command",
    [["validate"], ["rules"], ["variants", "show", "--origin"], ["variants", "diff", "classic"]],
)
def test_a_variant_file_that_is_a_loop_of_symbolic_links_is_one_line(
    command: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Path.resolve() raised RuntimeError("Symlink loop from ...") out of the loader: a traceback.
    monkeypatch.chdir(tmp_path)
    symlink_loop(tmp_path)
    result = runner.invoke(app, [*command, "loop.yaml"])
    assert result.exit_code == 1, result.output
    assert result.stderr == "loop.yaml: is a symbolic link that leads round in a loop\n"
    assert result.stdout == ""


def test_extends_of_a_loop_of_symbolic_links_says_so(tmp_path: Path) -> None:
    symlink_loop(tmp_path)
    path = write(tmp_path, "v.yaml", "extends: loop.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value) == (
        f"{path}:1:10: extends: is a symbolic link that leads round in a loop: {tmp_path}/loop.yaml"
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        (
            'extends: "a\\0b.yaml"\n',
            "{file}:1:10: extends: a file name cannot hold a NUL character: {folder}/a\\x00b.yaml",
        ),
        (
            'extends: "sub\\0/v.yaml"\n',
            "{file}:1:10: extends: a file name cannot hold a NUL character: {folder}/sub\\x00/v.yaml",
        ),
        (
            'variant: "a\\0b.yaml"\nplayers: [ann, bob]\n',
            "{file}:1:10: variant: a file name cannot hold a NUL character: {folder}/a\\x00b.yaml",
        ),
    ],
)
def test_a_nul_character_in_a_file_name_written_in_a_file_is_one_line(
    text: str, said: str, tmp_path: Path
) -> None:
    # os.stat raised ValueError("embedded null byte"): a traceback from validate, rules, play...
    path = write(tmp_path, "v.yaml", text)
    command = ["play", str(path)] if text.startswith("variant") else ["validate", str(path)]
    result = runner.invoke(app, command)
    assert result.exit_code == 1, result.output
    assert result.stderr == said.format(file=path, folder=tmp_path) + "\n"
    assert result.stdout == ""


# ----------------------------------------------------------------------------- names too long


LONG = "a" * 300
"""A file name longer than any system's 255 bytes: Path.exists() raises OSError (ENAMETOOLONG) for it."""


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["resume", "{long}"], "{long}: cannot read the file: File name too long"),
        (["saves", "--remove", "{long}"], "{long}: not a saved game that 'kalooki saves' lists"),
        (["schema", "--write", "{long}"], "cannot write {long}/variant.schema.json: File name too long"),
        (
            ["resume", "{save}", "--log", "{long}.jsonl"],
            "{long}.jsonl: no such log; a log runs from the game's first deal, so a resumed game can only "
            "continue the log it was started with (kalooki play --log FILE.jsonl)",
        ),
        (
            ["resume", "{logged_far}"],
            "{long}: this game's log is not there; it was written up to the save: give its new place with "
            "--log FILE.jsonl, or play on without a log with --no-log",
        ),
    ],
)
def test_a_name_too_long_for_the_system_is_one_line(
    command: list[str], said: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Path.exists() raised OSError: File name too long, a traceback from each of these.
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    document = saved_document()
    save = write(tmp_path, "game.json", json.dumps(document))
    document["session"]["log"] = str(tmp_path / LONG)
    document["checksum"] = save_checksum(document["session"], document["game"])
    logged_far = write(tmp_path, "far.json", json.dumps(document))
    before = {path.name: path.read_bytes() for path in (save, logged_far)}
    names = {"long": str(tmp_path / LONG), "save": str(save), "logged_far": str(logged_far)}
    result = runner.invoke(app, [part.format(**names) for part in command], input="quit\n")
    assert result.exit_code == 1, result.output
    assert result.stderr == said.format(**names) + "\n"
    assert {path.name: path.read_bytes() for path in (save, logged_far)} == before


@pytest.mark.parametrize(
    ("command", "after"),
    [
        (["saves"], ""),
        (["saves", "--clean"], ""),
        (["resume"], ""),
        (["play", "--fast"], ": give --save FILE to save the game elsewhere"),
    ],
)
def test_a_kalooki_home_too_long_for_the_system_is_one_line(
    command: list[str], after: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Path.exists() on the saves folder raised OSError: File name too long, a traceback from each.
    home = tmp_path / LONG
    monkeypatch.setenv("KALOOKI_HOME", str(home))
    result = runner.invoke(app, command, input="quit\n")
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"{home}/saves: kalooki cannot keep its saves there: File name too long{after}\n"
    )
    assert list(tmp_path.iterdir()) == []


def test_a_newline_in_kalooki_home_stays_spelled_out_when_there_is_nothing_to_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # kalooki saves spelled it out; kalooki resume broke its one line in two at it.
    home = tmp_path / "a\nb"
    monkeypatch.setenv("KALOOKI_HOME", str(home))
    result = runner.invoke(app, ["resume"])
    assert result.exit_code == 1, result.output
    assert result.stderr == (
        f"there are no saved games in {tmp_path}/a\\nb/saves: start one with 'kalooki play'\n"
    )


@pytest.mark.parametrize("base", ["b" * 5000 + ".yaml", "sub/" + "b" * 5000 + ".yaml"])
def test_a_base_named_by_a_huge_path_is_quoted_clipped(base: str, tmp_path: Path) -> None:
    # The whole 5,000 characters were echoed in the refusal's one line.
    path = write(tmp_path, "v.yaml", f"extends: {base}\nname: v\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:1:10: extends: no such file: ")
    assert message.endswith("b…")
    assert len(message) == len(f"{path}:1:10: extends: no such file: ") + 300


def _blocks_on_read(path: str) -> bool:
    """Whether ``path`` is a regular file that has nothing to give yet (/proc/kmsg, read by root)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return False
        os.read(descriptor, 1)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)
    return False


@pytest.mark.parametrize("peek", ["json_file_format", "is_script"])
def test_a_look_at_what_a_file_is_never_waits_on_a_fifo_put_in_its_place(
    peek: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A FIFO that replaced the file after Path.is_file() had looked (a race, set up here by the look saying
    # yes) was opened to see whether it was a save, a log or a script: the open waited for a writer for ever.
    from kalooki_cli.play import is_script

    from kalooki.file_kinds import json_file_format

    fifo = tmp_path / "game.yaml"
    os.mkfifo(fifo)
    monkeypatch.setattr(Path, "is_file", lambda self: True)
    call = {"json_file_format": json_file_format, "is_script": is_script}[peek]
    answers: list[object] = []
    looker = threading.Thread(target=lambda: answers.append(call(str(fifo))), daemon=True)
    looker.start()
    looker.join(5)
    waited = looker.is_alive()
    if waited:  # let the thread go: a writer opens the other end
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        looker.join(5)
    assert not waited
    assert answers == [None if peek == "json_file_format" else False]


@pytest.mark.skipif(not _blocks_on_read("/proc/kmsg"), reason="needs a regular file whose read waits")
@pytest.mark.parametrize("command", [["validate"], ["rules"], ["play"], ["variants", "show"]])
def test_a_variant_file_whose_read_would_wait_is_one_line(command: list[str]) -> None:
    # /proc/kmsg is a regular file to Path.is_file() and its read waits for the kernel's next message: the
    # look at whether it was a save, a log or a script hung every variant command.
    result = subprocess.run(
        [sys.executable, "-m", "kalooki", *command, "/proc/kmsg"],
        capture_output=True,
        text=True,
        input="",
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "/proc/kmsg: cannot read the file: Resource temporarily unavailable"
    ]


@pytest.mark.parametrize(
    ("name", "shown"), [("a\ud800.yaml", "a\\ud800.yaml"), ("x/\udfff/b.yaml", "x/\\udfff/b.yaml")]
)
def test_a_file_name_holding_half_a_utf16_pair_is_one_line_a_terminal_can_show(name: str, shown: str) -> None:
    # Path.resolve() raised UnicodeEncodeError out of load_variant; caught, os.open's ValueError was then
    # taken for a NUL in the name, and the message held the character no terminal can print.
    with pytest.raises(VariantError) as caught:
        load_variant(name)
    half = shown.split("\\u")[1][:4].upper()
    assert str(caught.value) == (
        f"{shown}: a file name cannot hold U+{half}: U+D800 to U+DFFF are halves of UTF-16 pairs"
    )
    str(caught.value).encode("utf-8")


def test_load_variant_given_a_nul_in_the_name_says_so_in_one_line() -> None:
    # A bare ValueError (embedded null byte) out of Path.resolve().
    with pytest.raises(VariantError) as caught:
        load_variant("a\x00.yaml")
    assert str(caught.value) == "a\\x00.yaml: a file name cannot hold a NUL character"


def test_an_extends_in_a_folder_whose_name_holds_half_a_utf16_pair_names_the_character() -> None:
    # Read as a NUL in the name: 'extends: a file name cannot hold a NUL character: b.yaml'.
    with pytest.raises(VariantError) as caught:
        load_variant_text("extends: ./b.yaml\n", base_dir="\ud800")
    assert str(caught.value) == (
        "<variant>:1:10: extends: a file name cannot hold U+D800: "
        "U+D800 to U+DFFF are halves of UTF-16 pairs: b.yaml"
    )
