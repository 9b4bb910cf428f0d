"""Files the commands write (``--csv``, ``--report``, ``kalooki new``) and standard output: a path
that cannot be written is refused in one line before any work, and what is not a plain file
(a device, a FIFO, a symbolic link) is written through, never replaced."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from kalooki_cli.saves import write_atomically
from typer.testing import CliRunner

runner = CliRunner()
KALOOKI = Path(sys.executable).with_name("kalooki")
needs_script = pytest.mark.skipif(not KALOOKI.exists(), reason="needs the installed console script")
# /proc takes no new files, whoever asks (root included, for whom no folder mode is read-only).
UNWRITABLE = Path("/proc/kalooki-output.csv")
needs_proc = pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc")


def test_a_fifo_is_written_through_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "rows.csv"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_atomically(fifo, "seed,hands\n1,3\n")
        assert stat.S_ISFIFO(fifo.lstat().st_mode)
        assert os.read(reader, 1000) == b"seed,hands\n1,3\n"
    finally:
        os.close(reader)
    assert [path.name for path in tmp_path.iterdir()] == ["rows.csv"]


def test_a_symbolic_link_stays_a_link_to_the_file_it_names(tmp_path: Path) -> None:
    target = tmp_path / "kept" / "games.csv"
    target.parent.mkdir()
    target.write_text("old\n")
    link = tmp_path / "games.csv"
    link.symlink_to(target)
    write_atomically(link, "new\n")
    assert link.is_symlink()
    assert target.read_text() == "new\n"
    assert sorted(path.name for path in target.parent.iterdir()) == ["games.csv"]


@needs_proc
@pytest.mark.parametrize(
    "arguments",
    [
        ["simulate", "-n", "1", "-w", "1", "--csv", str(UNWRITABLE)],
        ["sweep", "--grid", "jokers=2,4", "-n", "1", "-w", "1", "--csv", str(UNWRITABLE)],
    ],
)
def test_a_csv_in_a_folder_that_takes_no_files_is_refused_before_any_game(arguments: list[str]) -> None:
    result = runner.invoke(app, arguments)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{UNWRITABLE}: cannot write a file in {UNWRITABLE.parent}: No such file or directory"
    ]


@needs_proc
def test_a_report_in_a_folder_that_takes_no_files_is_refused_before_any_game() -> None:
    target = UNWRITABLE.with_suffix(".html")
    result = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--report", str(target)])
    assert result.exit_code == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"{target}: cannot write a file in {target.parent}: No such file or directory"
    ]


@pytest.mark.parametrize(
    "command", [["simulate", "-n", "1", "-w", "1"], ["sweep", "--grid", "jokers=2,4", "-n", "1", "-w", "1"]]
)
def test_a_csv_never_writes_over_a_game_log_variant_or_script(command: list[str], tmp_path: Path) -> None:
    # `--csv game.kalooki-save.json` replaced the game in play with the CSV rows, without a word, and
    # `--csv club.yaml` the club's house rules.
    save = tmp_path / "game.kalooki-save.json"
    save.write_text('{"format": "kalooki-save", "version": 1, "checksum": "", "session": {}, "game": {}}')
    log = tmp_path / "game.jsonl"
    log.write_text('{"type": "game", "format": "kalooki-log", "version": 1}\n')
    variant = tmp_path / "club.yaml"
    variant.write_text("extends: classic\njoker_penalty: 15\n")
    script = tmp_path / "game.yaml"
    script.write_text("players: [ann, bob]\nseed: 3\nhands: []\n")
    half_edited = tmp_path / "draft.yml"
    half_edited.write_text("extends: classic\njoker_penalty: [15\n")
    for path, held in (
        (save, f"a saved game (continue it with `kalooki resume {save}`)"),
        (log, f"a game log (replay it with `kalooki replay {log}`)"),
        (variant, f"a variant file (play it with `kalooki play {variant}`)"),
        (script, f"a game script (run it with `kalooki play {script}`)"),
        (half_edited, "YAML, the kind of file kalooki reads (variants, game scripts)"),
    ):
        before = path.read_bytes()
        result = runner.invoke(app, [*command, "--csv", str(path)])
        assert result.exit_code == 1, result.output
        assert (result.stdout, result.stderr) == ("", f"{path}: already holds {held}; give a new file\n")
        assert path.read_bytes() == before
    rows = tmp_path / "rows.csv"
    rows.write_text("an earlier run's rows\n")
    assert runner.invoke(app, [*command, "--csv", str(rows)]).exit_code == 0  # written anew, as always
    assert rows.read_text() != "an earlier run's rows\n"


def test_new_with_force_still_replaces_a_variant(tmp_path: Path) -> None:
    variant = tmp_path / "club.yaml"
    variant.write_text("extends: classic\njoker_penalty: 15\n")
    result = runner.invoke(app, ["new", str(variant), "--force"])
    assert result.exit_code == 0, result.output
    assert "joker_penalty: 15" not in variant.read_text()


EMPTY_PATHS = [
    (["play", "--save", ""], "'--save'", "file"),
    (["play", "--log", ""], "'--log'", "file"),
    (["resume", ""], "'N|FILE'", "file"),
    (["resume", "1", "--log", ""], "'--log'", "file"),
    (["replay", ""], "'LOG'", "file"),
    (["new", ""], "'FILE.yaml'", "file"),
    (["simulate", "-n", "1", "--csv", ""], "'--csv'", "file"),
    (["simulate", "-n", "1", "--report", ""], "'--report'", "file"),
    (["simulate", "-n", "1", "--plot", ""], "'--plot'", "file"),
    (["sweep", "--grid", "jokers=2,4", "-n", "1", "--csv", ""], "'--csv'", "file"),
    (["sweep", "--grid", "jokers=2,4", "-n", "1", "--report", ""], "'--report'", "file"),
    (["sweep", "--grid", "jokers=2,4", "-n", "1", "--plot", ""], "'--plot'", "file"),
    (["sweep", "--grid", "jokers=2,4", "-n", "1", "--out", ""], "'--out'", "folder"),
    (["host", "--save", ""], "'--save'", "file"),
    (["host", "--resume", ""], "'--resume'", "file"),
    (["host", "--log", ""], "'--log'", "file"),
    (["schema", "--write", ""], "DIR", "folder"),
]
"""Every option or argument that names a file or folder, given an empty one: read as a path it was ``.``,
the current folder, refused as "a folder" by some (exit 1), "a directory" by others, while
``sweep --out ''`` played the sweep into the current folder."""


@pytest.mark.parametrize(("arguments", "where", "what"), EMPTY_PATHS)
def test_an_empty_path_is_one_usage_error_in_the_same_words(
    arguments: list[str], where: str, what: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    result = runner.invoke(app, arguments)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
    assert errors == [f"Error: Invalid value for {where}: give a {what} name, not an empty one"]
    assert list(tmp_path.iterdir()) == []  # nothing written, here or in the saves folder


@needs_proc
def test_new_refuses_a_folder_that_takes_no_files_in_one_line() -> None:
    target = UNWRITABLE.with_suffix(".yaml")
    result = runner.invoke(app, ["new", str(target)])
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        f"{target}: cannot write a file in {target.parent}: No such file or directory"
    ]


@needs_script
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "arguments",
    [
        ["variants", "show", "classic"],
        ["rules", "classic"],
        ["schema"],
        ["simulate", "-n", "1", "-w", "1", "--json"],
    ],
)
def test_a_full_standard_output_is_one_line_and_exit_1(arguments: list[str]) -> None:
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [str(KALOOKI), *arguments], stdout=full, stderr=subprocess.PIPE, text=True, timeout=60
        )
    assert result.returncode == 1
    assert result.stderr.splitlines() == ["kalooki: cannot write the output: No space left on device"]


@needs_script
@pytest.mark.parametrize(
    "arguments",
    [
        ["simulate", "-n", "2", "-w", "1"],
        ["simulate", "-n", "2", "-w", "1", "--json"],
        ["sweep", "--grid", "jokers=2,4", "-n", "2", "-w", "1"],
    ],
)
def test_the_csv_is_written_when_the_pipe_closes_before_the_report(
    arguments: list[str], tmp_path: Path
) -> None:
    # `kalooki simulate --csv games.csv | head` played every game, then lost the CSV: the pipe
    # closed under the report printed before it, and the command stopped there.
    rows = tmp_path / "games.csv"
    reader, writer = os.pipe()
    os.close(reader)
    try:
        result = subprocess.run(
            [str(KALOOKI), *arguments, "--csv", str(rows)],
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(writer)
    assert result.returncode == 1
    assert result.stderr == ""
    assert rows.read_text().splitlines()[0].startswith(("variant,game,seed,", "jokers,baseline,"))


@pytest.mark.parametrize(
    "command", [["simulate", "-n", "1", "-w", "1"], ["sweep", "--grid", "jokers=2,4", "-n", "1", "-w", "1"]]
)
def test_a_csv_on_standard_output_still_writes_the_report_and_the_chart(
    command: list[str], tmp_path: Path
) -> None:
    # `--csv - --report r.html --plot r.png` printed the rows and wrote neither file, exit 0.
    pytest.importorskip("matplotlib")
    page, chart = tmp_path / "r.html", tmp_path / "r.png"
    result = runner.invoke(app, [*command, "--csv", "-", "--report", str(page), "--plot", str(chart)])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith(("variant,game,", "jokers,baseline,"))
    assert result.stderr.splitlines() == [f"{page}: report written", f"{chart}: chart written"]
    assert page.read_text().startswith("<!DOCTYPE html>")
    assert chart.read_bytes().startswith(b"\x89PNG")


def test_one_of_a_thing_is_counted_in_the_singular(tmp_path: Path) -> None:
    log = tmp_path / "game.jsonl"
    script = Path(__file__).parent / "golden" / "scripts" / "kalooki-opening.yaml"
    assert runner.invoke(app, ["play", str(script), "--log", str(log)]).exit_code == 0
    result = runner.invoke(app, ["replay", str(log)])
    assert result.stdout.startswith(f"{log}: ok: 6 records, 3 actions, 1 hand reproduced; ")
    result = runner.invoke(app, ["simulate", "-n", "1", "-w", "1"])
    assert result.stdout.startswith("classic: 1 game, ")
    result = runner.invoke(app, ["simulate", "-n", "1", "-w", "1", "--compare-set", "jokers=3"])
    assert result.stdout.startswith("A = classic, B = classic with jokers=3: 1 game each on the same")
    result = runner.invoke(app, ["sweep", "--grid", "jokers=2,3", "-n", "1", "-w", "1"])
    assert result.stdout.startswith("classic: 2 cells × 1 game on the same seeds")


@pytest.mark.parametrize(
    "command",
    [["play", "--fast", "--save"], ["play", "--fast", "--log"], ["simulate", "-n", "1", "--csv"]],
)
def test_a_file_name_too_long_for_the_system_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: list[str]
) -> None:
    # Asking whether such a name is a folder raised ENAMETOOLONG: a traceback, the name in full.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    result = runner.invoke(app, [*command, "x" * 5000], input="")
    assert (result.exit_code, result.stderr) == (
        1,
        f"{'x' * 79}…: cannot write a file so named: File name too long\n",
    )


def test_a_log_named_dash_is_a_file_not_standard_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `-` means standard output for a CSV only; a log so named is a file, and a folder so named is said.
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("KALOOKI_HOME", str(tmp_path / "home"))
    (tmp_path / "-").mkdir()
    result = runner.invoke(app, ["play", "--fast", "--log", "-"], input="")
    assert (result.exit_code, result.stderr) == (1, "-: is a folder; give a file name\n")


def limited_to(size: int) -> None:
    """In the child: files it writes may grow to ``size`` bytes (a disk with that much room left, as
    far as a write can tell); past it, a write is cut short, then fails (EFBIG)."""
    import resource

    resource.setrlimit(resource.RLIMIT_FSIZE, (size, size))


@needs_script
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("unbuffered", ["1", ""], ids=["PYTHONUNBUFFERED", "buffered"])
@pytest.mark.parametrize("arguments", [["rules", "classic"], ["schema"]])
def test_output_cut_short_by_a_full_file_is_said_unbuffered_too(
    arguments: list[str], unbuffered: str, tmp_path: Path
) -> None:
    # With PYTHONUNBUFFERED (Docker, CI) standard output's first write was cut short at the limit, the
    # rest dropped without a word, and the command ended 0 with its output cut off.
    environment = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        environment["PYTHONUNBUFFERED"] = unbuffered
    with (tmp_path / "out").open("w") as out:
        result = subprocess.run(
            [str(KALOOKI), *arguments],
            stdout=out,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
            preexec_fn=lambda: limited_to(1024),
            timeout=60,
        )
    assert (result.returncode, result.stderr) == (1, "kalooki: cannot write the output: File too large\n")


@needs_script
def test_unbuffered_output_is_written_whole_and_at_once(tmp_path: Path) -> None:
    # Each write goes out as it is made (a prompt shows before the answer is read), and all of it.
    environment = {**os.environ, "PYTHONUNBUFFERED": "1"}
    whole = subprocess.run(
        [str(KALOOKI), "schema"], capture_output=True, text=True, env=environment, timeout=60, check=True
    ).stdout
    assert json.loads(whole)["title"]
    played = subprocess.run(
        [str(KALOOKI), "play", "--seed", "5", "--players", "2", "--fast"],
        input="quit\n",
        capture_output=True,
        text=True,
        env={**environment, "KALOOKI_HOME": str(tmp_path / "home")},
        timeout=60,
    )
    assert played.returncode == 0, played.stderr
    assert "draw> " in played.stdout


@needs_script
@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
def test_schema_write_on_a_full_disk_leaves_no_schema_behind(tmp_path: Path) -> None:
    # The schema was written in place: a full disk left a file cut short (or empty) for the editor to read.
    folder = tmp_path / "sch"
    result = subprocess.run(
        [str(KALOOKI), "schema", "--write", str(folder)],
        capture_output=True,
        text=True,
        preexec_fn=lambda: limited_to(1024),
        timeout=60,
    )
    assert (result.returncode, result.stdout) == (1, "")
    assert result.stderr == f"cannot write {folder / 'variant.schema.json'}: File too large\n"
    assert list(folder.iterdir()) == []
