"""File names no file can have: a loop of symbolic links, a NUL character inside a name."""

from __future__ import annotations

from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.loader import VariantError, load_variant

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
    assert result.stderr == "loop.yaml: cannot read the file: Too many levels of symbolic links\n"
    assert result.stdout == ""


def test_extends_of_a_loop_of_symbolic_links_says_so(tmp_path: Path) -> None:
    symlink_loop(tmp_path)
    path = write(tmp_path, "v.yaml", "extends: loop.yaml\n")
    with pytest.raises(VariantError) as caught:
        load_variant(path)
    assert str(caught.value) == (
        f"{path}:1:10: extends: is a loop of symbolic links, not a variant file: {tmp_path}/loop.yaml"
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
