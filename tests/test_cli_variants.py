"""The CLI's variant commands, through Typer's runner and through the installed console script."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.app import app
from typer.testing import CliRunner

from kalooki.loader import builtin_variant_names, load_variant, load_variant_text
from kalooki.resources import variants_dir
from kalooki.schema import render_schema, schema_names

runner = CliRunner()
FIXTURES = Path(__file__).parent / "fixtures" / "variants"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_validate_ok_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(variants_dir().parent)
    code, out, err = run("validate", "variants/classic.yaml", "variants/czech-300.yaml", "kalooki-40")
    assert (code, err) == (0, "")
    assert out.splitlines() == ["variants/classic.yaml: ok", "variants/czech-300.yaml: ok", "kalooki-40: ok"]


def test_validate_reports_every_error_and_exits_1(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    code, out, err = run(
        "validate", "good/minimal.yaml", "bad/field-several-errors.yaml", "bad/yaml-tab.yaml"
    )
    assert code == 1
    assert out.splitlines() == ["good/minimal.yaml: ok"]
    expected = (FIXTURES / "bad/field-several-errors.expected").read_text(encoding="utf-8")
    expected += (FIXTURES / "bad/yaml-tab.expected").read_text(encoding="utf-8")
    assert err == expected


def test_validate_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    code, out, _ = run("validate", "--format", "json", "good/minimal.yaml", "bad/field-octal.yaml")
    assert code == 1
    report = json.loads(out)
    assert report["valid"] is False
    assert report["files"] == [
        {"path": "good/minimal.yaml", "valid": True},
        {"path": "bad/field-octal.yaml", "valid": False},
    ]
    (diagnostic,) = report["diagnostics"]
    assert diagnostic == {
        "path": "bad/field-octal.yaml",
        "line": 1,
        "column": 20,
        "key": "opening_threshold",
        "message": "expected a whole number, got '0250': a leading zero is not allowed "
        "(YAML 1.1 reads 0250 as octal 168); write 250",
    }
    code, out, _ = run("validate", "--format", "json", "good/minimal.yaml")
    assert code == 0
    assert json.loads(out) == {
        "valid": True,
        "files": [{"path": "good/minimal.yaml", "valid": True}],
        "diagnostics": [],
        "warnings": [],
    }


def test_validate_with_set(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    assert run("validate", "good/minimal.yaml", "--set", "opening_threshold=40")[0] == 0
    code, out, err = run(
        "validate", "good/minimal.yaml", "good/no-jokers.yaml", "--set", "opening_threshold=yes"
    )
    assert (code, out) == (1, "")
    assert (
        err == "--set:1:19: opening_threshold: expected a whole number, got 'yes': "
        "write a whole number from 0 to 1000\n"
    )
    code, _, err = run("validate", "good/minimal.yaml", "--set", "max_players=8", "--set", "jokers=0")
    assert code == 1
    assert err.startswith("--set:1:13: max_players: max_players * hand_size + 1 = 8 * 13 + 1 = 105")


def test_validate_reports_bad_set_options_and_every_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(FIXTURES)
    code, out, err = run("validate", "nothere.yaml", "good/minimal.yaml", "--set", "jokers=x")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "--set:1:8: jokers: expected a whole number, got 'x': write a whole number from 0 to 8",
        "nothere.yaml: no such file",
    ]
    code, out, _ = run(
        "validate", "nothere.yaml", "good/minimal.yaml", "--set", "jokers=x", "--format", "json"
    )
    assert code == 1
    report = json.loads(out)
    assert report["files"] == [
        {"path": "nothere.yaml", "valid": False},
        {"path": "good/minimal.yaml", "valid": False},
    ]
    assert [(d["path"], d["message"]) for d in report["diagnostics"]] == [
        ("--set", "expected a whole number, got 'x': write a whole number from 0 to 8"),
        ("nothere.yaml", "no such file"),
    ]


def test_validate_a_game_script(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("game.yaml").write_text("players: [ann, bob]\nseed: 3\nhands:\n  - moves: []\n", encoding="utf-8")
    assert run("validate", "game.yaml") == (
        1,
        "",
        "game.yaml:1:1: this is a game script, not a variant: run it with `kalooki play game.yaml`\n",
    )


@pytest.mark.parametrize(
    "text",
    [
        "{players: [{name: ann, bot: greedy}, {name: bob, bot: greedy}], seed: 3}\n",
        '"players": [{name: ann, bot: greedy}, {name: bob, bot: greedy}]\n"seed": 3\n',
        '{"players": [{"name": "ann", "bot": "greedy"}, {"name": "bob", "bot": "greedy"}], "seed": 3}',
    ],
    ids=["flow-style", "quoted-keys", "json"],
)
def test_play_runs_a_script_however_its_yaml_is_written(
    text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Such a script has no key at a line's start: it was taken for a variant and refused as a script.
    monkeypatch.chdir(tmp_path)
    Path("game.yaml").write_text(text, encoding="utf-8")
    code, out, err = run("play", "game.yaml", "--json")
    assert (code, err) == (0, "")
    report = json.loads(out)
    assert report["players"] == ["ann", "bob"]
    assert report["hands"][0]["finished"] is True


def test_play_refuses_its_own_json_report_as_a_report_not_a_broken_script(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The report holds players and hands: it was read as a script, eleven lines of 'unknown key'.
    monkeypatch.chdir(tmp_path)
    Path("game.yaml").write_text("players: [ann, bob]\nseed: 3\n", encoding="utf-8")
    code, out, err = run("play", "game.yaml", "--json")
    assert (code, err) == (0, "")
    Path("report.json").write_text(out, encoding="utf-8")
    message = "report.json:1:1: this is the report `kalooki play SCRIPT --json` writes, not a variant; "
    assert run("play", "report.json") == (1, "", message + "no command reads it back\n")
    assert run("validate", "report.json") == (1, "", message + "no command reads it back\n")


def test_play_still_refuses_a_simulate_report_that_counts_its_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("report.yaml").write_text(
        '{"rules": {}, "games": 2, "seat_hand_wins": [], "hands": 5}', encoding="utf-8"
    )
    assert run("play", "report.yaml") == (
        1,
        "",
        "report.yaml:1:1: this is the report `kalooki simulate --json` writes, not a variant; "
        "no command reads it back\n",
    )


def test_validate_an_existing_folder_says_so_however_it_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("sub").mkdir()
    code, out, err = run("validate", "sub", ".", "sub/")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "sub: is a directory, not a file",
        ".: is a directory, not a file",
        "sub/: is a directory, not a file",
    ]


@pytest.mark.parametrize(
    ("command", "writer"),
    [
        (["simulate", "--games", "2", "--json"], "kalooki simulate --json"),
        (
            ["simulate", "--games", "2", "--compare-set", "jokers=4", "--json"],
            "kalooki simulate --compare ... --json",
        ),
    ],
)
def test_validate_a_simulate_report_says_what_it_is(
    command: list[str], writer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, report, _ = run(*command)
    assert code == 0
    Path("result.json").write_text(report, encoding="utf-8")
    assert run("validate", "result.json") == (
        1,
        "",
        f"result.json:1:1: this is the report `{writer}` writes, not a variant; no command reads it back\n",
    )


SWEEP_RECORD = "this is the record of a sweep that `kalooki sweep --out` keeps in its folder"
SWEEP_CELL = "this is a cell of a sweep that `kalooki sweep --out` keeps in its folder"


def test_a_sweep_folders_files_are_said_to_be_what_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert run("sweep", "classic", "--grid", "jokers=2,4", "-n", "2", "--out", "lab")[0] == 0
    instead = "not a variant: give the variant the sweep was run with (its name or file)"
    record, cell = "lab/sweep.json", "lab/cells/cell-000.json"
    assert run("validate", record, cell) == (
        1,
        "",
        f"{record}:1:1: {SWEEP_RECORD}, {instead}\n{cell}:1:1: {SWEEP_CELL}, {instead}\n",
    )
    for command in ("play", "rules"):
        assert run(command, cell) == (1, "", f"{cell}:1:1: {SWEEP_CELL}, {instead}\n")
    # Where a log or a save was wanted: what reads it back.
    for command, wanted in (("replay", "log"), ("resume", "save")):
        code, _, err = run(command, record)
        assert code == 1
        assert (
            f"{SWEEP_RECORD}, not a {wanted}: the sweep reads it back when run again with this --out folder"
            in err
        )


def test_validate_a_json_object_with_no_variant_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    Path("other.json").write_text('{"alpha": 1, "beta": [2], "gamma": 3, "delta": 4}', encoding="utf-8")
    Path("typo.json").write_text('{"deks": 2}', encoding="utf-8")
    assert run("validate", "other.json", "typo.json") == (
        1,
        "",
        "other.json:1:1: this is a JSON object none of whose keys (alpha, beta, gamma, ...) is a variant's: "
        "not a variant file\n"
        "typo.json:1:2: deks: unknown key 'deks'; did you mean 'decks'?\n",
    )


def test_a_bad_format_is_a_usage_error_in_plain_words() -> None:
    code, _, err = run("validate", "--format", "xml", "classic")
    assert code == 2
    assert err.splitlines()[-1] == "Error: Invalid value for '--format': 'xml' is not one of 'text', 'json'."
    assert run("validate", "--format", "json", "classic")[0] == 0


def test_version() -> None:
    assert run("--version") == (0, "kalooki 0.1.0\n", "")


def test_usage_errors_exit_2() -> None:
    assert run("validate")[0] == 2
    assert run("validate", "--format", "xml", "x.yaml")[0] == 2
    assert run("variants", "show")[0] == 2
    assert run("variants", "diff", "classic")[0] == 2
    assert run("nonsense")[0] == 2
    assert run("schema", "nope")[0] == 2
    assert run("schema", "--check", "--write")[0] == 2


@pytest.mark.parametrize(
    ("command", "said"),
    [
        ("play --variant ours.yaml --fast", "the variant is the first argument (kalooki play ours.yaml)"),
        (
            "simulate --variant=ours.yaml -n 1",
            "the variant is the first argument (kalooki simulate ours.yaml)",
        ),
        ("rules --variant", "the variant is the first argument (kalooki rules NAME|PATH)"),
        # The name was shown as typed inside the command, which then played 'ours' with 'game.yaml' over.
        (
            "play --variant 'ours game.yaml'",
            "the variant is the first argument (kalooki play 'ours game.yaml')",
        ),
    ],
)
def test_a_variant_given_as_an_option_is_shown_as_the_argument(command: str, said: str) -> None:
    result = runner.invoke(app, shlex.split(command), prog_name="kalooki")
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == f"Error: No such option: --variant: {said}"


def test_variants_list_shows_every_builtin() -> None:
    code, out, _ = run("variants", "list")
    assert code == 0
    for name in builtin_variant_names():
        assert name in out
    assert "open" in out
    assert "winner, to 250" in out


def test_variants_alone_lists_them_as_variants_list_does() -> None:
    alone, listed = run("variants"), run("variants", "list")
    assert alone[0] == 0
    assert alone[1] == listed[1]
    assert run("variants", "nonsense")[0] == 2


def test_variants_list_fits_80_columns_with_each_description_on_its_own_line() -> None:
    result = runner.invoke(app, ["variants", "list"], env={"COLUMNS": "80"})
    assert result.exit_code == 0
    lines = [line.rstrip() for line in result.stdout.splitlines()]
    assert max(len(line) for line in lines) <= 80
    assert lines[1].split() == ["variant", "players", "open", "runs", "joker", "scoring"]
    for name in builtin_variant_names():
        (row,) = [index for index, line in enumerate(lines) if line.split()[:1] == [name]]
        variant = load_variant(name)
        assert lines[row].split()[1:4] == [
            f"{variant.min_players}-{variant.max_players}" if variant.min_players != variant.max_players
            else str(variant.min_players),
            str(variant.opening_threshold),
            f"{variant.run_minimum}+",
        ]  # fmt: skip
        assert lines[row + 1].strip() == variant.description
    kaluki = next(line for line in lines if line.startswith(" kaluki-51"))
    assert kaluki.split() == ["kaluki-51", "4", "51", "4+", "25", "winner,", "to", "250"]


def test_variants_list_narrower_than_its_table_shows_every_name_whole() -> None:
    # At 50 columns the table cut the names a player types ("house-ru…") and the headings ("o…").
    result = runner.invoke(app, ["variants", "list"], env={"COLUMNS": "50"})
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert "…" not in result.stdout
    assert max(len(line) for line in lines) <= 50
    assert [line for line in lines if not line.startswith(" ")] == builtin_variant_names()
    kaluki = lines.index("kaluki-51")
    assert lines[kaluki + 1 : kaluki + 3] == [
        "  players 4 · open 51 · runs 4+ · joker 25",
        "  scoring: winner, to 250",
    ]
    assert " ".join(lines[kaluki + 3 : kaluki + 5]).split() == load_variant("kaluki-51").description.split()
    # The table stays where it fits whole.
    table = runner.invoke(app, ["variants", "list"], env={"COLUMNS": "62"}).stdout
    assert table.splitlines()[1].split() == ["variant", "players", "open", "runs", "joker", "scoring"]
    assert "…" not in table


def test_variants_diff_narrower_than_its_table_writes_each_value_whole() -> None:
    # At 50 columns the table read "resh…" beside "reshu…" for stock_exhausted.
    result = runner.invoke(app, ["variants", "diff", "classic", "kalooki-40"], env={"COLUMNS": "50"})
    assert result.exit_code == 0
    assert result.stdout.splitlines() == [
        "classic → kalooki-40",
        "  max_players: 4 → 5",
        "  upcard: true → false",
        "  joker_penalty: 25 → 15",
        "  ace_in_runs: high_or_low → high",
        "  opening_threshold: 51 → 40",
        "  discard_draw: always → meld_at_once",
        "  released_joker_must_be_melded: false → true",
        "  goal_score: 150 → 151",
        "  elimination: false → true",
        "  stock_exhausted: reshuffle_all →",
        "  reshuffle_keep_top",
    ]
    table = runner.invoke(app, ["variants", "diff", "classic", "kalooki-40"], env={"COLUMNS": "80"}).stdout
    assert "│ stock_exhausted               │ reshuffle_all │ reshuffle_keep_top │" in table


def test_variants_show_prints_a_loadable_resolved_variant() -> None:
    code, out, _ = run("variants", "show", "czech-300", "--set", "jokers=4")
    assert code == 0
    assert "goal_score: 300\n" in out
    assert "scoring: winner_collects\n" in out
    assert "extends" not in out
    variant = load_variant_text(out, "czech-300.yaml")
    assert (variant.goal_score, variant.jokers, variant.joker_penalty) == (300, 4, 15)


def test_variants_show_origin(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(variants_dir().parent)
    code, out, _ = run("variants", "show", "variants/czech-300.yaml", "--origin", "--set", "decks=3")
    assert code == 0
    lines = {line.split(":")[0]: line for line in out.splitlines()}
    assert lines["goal_score"].endswith("# variants/czech-300.yaml:8:13")
    assert "# builtin:czech-500:" in lines["scoring"]
    assert lines["decks"].endswith("# --set decks=3")
    assert lines["hand_size"].endswith("# classic default")


def test_variants_show_unknown_name_exits_1() -> None:
    code, out, err = run("variants", "show", "clasic")
    assert (code, out) == (1, "")
    assert err.startswith(
        "clasic: unknown variant 'clasic' (did you mean 'classic'?); the built-in variants are "
    )


def test_variants_diff() -> None:
    code, out, _ = run("variants", "diff", "czech-500", "czech-300")
    assert code == 0
    assert "goal_score" in out
    assert "500" in out
    assert "300" in out
    assert "joker_penalty" not in out
    code, out, _ = run("variants", "diff", "classic", "romanian")
    assert (code, out) == (0, "classic and romanian have the same rules\n")


def test_variants_diff_with_set_options(tmp_path: Path) -> None:
    code, out, _ = run("variants", "diff", "classic", "classic", "--set", "jokers=4", "--set-a", "decks=3")
    assert code == 0
    rows = [line.strip("│ ").split() for line in out.splitlines() if line.startswith("│")]
    assert rows == [["decks", "│", "3", "│", "2"], ["jokers", "│", "2", "│", "4"]]
    # Headed "classic --set-a decks=3": the option's name, not the variant the column shows.
    assert "┃ classic (decks=3) ┃ classic (jokers=4) ┃" in out
    code, out, _ = run("variants", "diff", "classic", "romanian", "--set", "jokers=2")
    assert (code, out) == (0, "classic and romanian (jokers=2) have the same rules\n")
    code, out, err = run(
        "variants", "diff", "classic", "nothere.yaml", "--set-a", "jokers=x", "--set", "jokrs=1"
    )
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "--set-a:1:8: jokers: expected a whole number, got 'x': write a whole number from 0 to 8",
        "--set:1:1: jokrs: unknown key 'jokrs'; did you mean 'jokers'?",
        "nothere.yaml: no such file",
    ]


@pytest.mark.parametrize(
    "path",
    [
        "bad/yaml-syntax-missing-colon.yaml",
        "bad/field-number-in-words.yaml",
        "bad/field-unknown-key-in-words.yaml",
    ],
)
@pytest.mark.parametrize(
    "command",
    ["validate FILE", "rules FILE", "variants show FILE", "play FILE --fast", "simulate FILE --games 1"],
)
def test_a_players_slip_is_named_alike_by_every_command(
    command: str, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES)
    code, out, err = run(*command.replace("FILE", path).split())
    assert (code, out) == (1, "")
    assert err == (FIXTURES / path).with_suffix(".expected").read_text(encoding="utf-8")


def test_rules_prints_markdown() -> None:
    code, out, _ = run("rules", "kalooki-40", "--set", "goal_score=200")
    assert code == 0
    assert out.startswith("# kalooki-40\n")
    assert "reaches 200 points is out of the game" in out


def test_schema_print_check_and_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, _ = run("schema")
    assert (code, out) == (0, render_schema("variant"))
    assert run("schema", "variant", "--check") == (0, "variant schema: up to date\n", "")
    code, out, _ = run("schema", "--check")
    assert code == 0
    assert out.splitlines() == [f"{name} schema: up to date" for name in schema_names()]

    checkout = tmp_path / "checkout"
    (checkout / "schemas").mkdir(parents=True)
    (checkout / "pyproject.toml").write_text("", encoding="utf-8")
    (checkout / "schemas" / "variant.schema.json").write_text("{}\n", encoding="utf-8")
    monkeypatch.setattr("kalooki.schema.schemas_dir", lambda: checkout / "schemas")
    code, _, err = run("schema", "variant", "--check")
    assert code == 1
    assert "regenerate it with: kalooki schema --write" in err
    assert run("schema", "variant", "--write")[0] == 0
    assert run("schema", "variant", "--check")[0] == 0

    installed = tmp_path / "site-packages" / "kalooki" / "data" / "schemas"
    installed.mkdir(parents=True)
    monkeypatch.setattr("kalooki.schema.schemas_dir", lambda: installed)
    code, _, err = run("schema", "--write")
    assert code == 1
    assert "not in a source checkout" in err


def _console_script() -> str:
    script = Path(sys.executable).parent / "kalooki"
    found = str(script) if script.exists() else shutil.which("kalooki")
    if found is None:
        pytest.skip("the kalooki console script is not installed (pip install -e .)")
    return found


def test_installed_console_script(tmp_path: Path) -> None:
    kalooki = _console_script()
    listing = subprocess.run([kalooki, "variants", "list"], capture_output=True, text=True, check=False)
    assert listing.returncode == 0, listing.stderr
    assert "kaluki-51" in listing.stdout
    mine = tmp_path / "mine.yaml"
    mine.write_text("extends: classic\nopening_threshold: 40\n", encoding="utf-8")
    bad = tmp_path / "bad.yaml"
    bad.write_text("extends: classic\nopening_threshold: yes\n", encoding="utf-8")
    result = subprocess.run([kalooki, "validate", "mine.yaml", "bad.yaml"], capture_output=True, text=True,
                            cwd=tmp_path, check=False)  # fmt: skip
    assert result.returncode == 1
    assert result.stdout == "mine.yaml: ok\n"
    assert (
        result.stderr == "bad.yaml:2:20: opening_threshold: expected a whole number, got 'yes': "
        "write a whole number from 0 to 1000\n"
    )


def test_python_dash_m_kalooki() -> None:
    result = subprocess.run([sys.executable, "-m", "kalooki", "validate", "classic"], capture_output=True,
                            text=True, check=False)  # fmt: skip
    assert (result.returncode, result.stdout) == (0, "classic: ok\n")


def test_importing_the_library_does_not_import_the_cli() -> None:
    code = "import sys, kalooki, kalooki.loader, kalooki.__main__; print('kalooki_cli' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout == "False\n"


def test_schema_write_refuses_a_file_or_an_empty_name_for_its_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "friday.yaml").write_text("jokers: 4\n")
    code, out, err = run("schema", "--write", "friday.yaml")
    assert (code, out) == (1, "")
    assert err.splitlines() == ["friday.yaml: is a file; --write needs a folder"]
    result = runner.invoke(app, ["schema", "--write", ""])
    assert result.exit_code == 2
    assert "DIR: give a folder name, not an empty one" in " ".join(result.output.split())
    assert sorted(path.name for path in tmp_path.iterdir()) == ["friday.yaml"]


def test_schema_check_takes_the_folder_schema_write_wrote_into(tmp_path: Path) -> None:
    # After an upgrade, `kalooki schema --check DIR` was told "unknown schema 'DIR'", as though DIR were
    # a schema's name: the copies an editor setting points at could not be checked.
    folder = tmp_path / "my schemas"
    assert run("schema", "--write", str(folder))[0] == 0
    assert run("schema", "--check", str(folder)) == (
        0,
        "".join(f"{name} schema in {folder}: up to date\n" for name in schema_names()),
        "",
    )
    (folder / "protocol.schema.json").write_text("{}\n", encoding="utf-8")
    (folder / "game-script.schema.json").unlink()
    assert run("schema", "variant", "--check", str(folder)) == (
        0,
        f"variant schema in {folder}: up to date\n",
        "",
    )
    code, out, err = run("schema", "--check", str(folder))
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        f"{folder}/game-script.schema.json is missing; generate it with: kalooki schema --write '{folder}'",
        f"{folder}/protocol.schema.json is out of date with the model; regenerate it with: kalooki schema "
        f"--write '{folder}'",
    ]
    result = runner.invoke(app, ["schema", "--check", str(tmp_path / "nope")])
    assert result.exit_code == 2
    assert (
        f"unknown schema '{tmp_path / 'nope'}', and no folder of that name; choose from variant, "
        "game-script, protocol, or give the folder that kalooki schema --write DIR wrote them into"
    ) in " ".join(result.output.split())
    (tmp_path / "friday.yaml").write_text("jokers: 4\n")
    assert run("schema", "--check", str(tmp_path / "friday.yaml")) == (
        1,
        "",
        f"{tmp_path / 'friday.yaml'}: is a file; --check needs a folder\n",
    )


def test_rules_reads_classic_when_no_variant_is_named() -> None:
    """As play and simulate do: a newcomer's first ``kalooki rules`` is the default game's rulebook."""
    code, out, err = run("rules", "--markdown")
    assert (code, err) == (0, "")
    assert out == run("rules", "--markdown", "classic")[1]
    assert out.splitlines()[0] == "# classic"


@pytest.mark.parametrize("command", [["validate"], ["rules"], ["variants", "show"]])
def test_an_empty_variant_name_is_said_without_an_empty_place(command: list[str]) -> None:
    code, out, err = run(*command, "")
    assert out == ""
    assert code == 1
    assert err.startswith("unknown variant ''; the built-in variants are classic, ")
    assert err.count("\n") == 1
