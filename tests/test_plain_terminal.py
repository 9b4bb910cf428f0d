"""Output where standard output cannot encode everything (``LC_ALL=C``, a Latin-1 locale): no command
ends in a UnicodeEncodeError; symbols come out as the project's ASCII stand-ins, accents dropped."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from kalooki_cli.plain_text import stand_in

KALOOKI = Path(sys.executable).with_name("kalooki")
GOLDEN = Path(__file__).parent / "golden"
ENCODINGS = ["ascii", "latin-1"]


def kalooki(
    encoding: str, *arguments: str, stdin: str = "", columns: int = 100, cwd: Path | None = None
) -> str:
    """The command's output and errors as the stream's encoding wrote them; it must exit 0."""
    environment = {**os.environ, "PYTHONIOENCODING": encoding, "COLUMNS": str(columns)}
    result = subprocess.run(
        [str(KALOOKI), *arguments],
        input=stdin.encode(),
        capture_output=True,
        env=environment,
        cwd=cwd,
        timeout=120,
    )
    # Click writes its echo in UTF-8 where the locale says ASCII (it takes that for a misconfiguration).
    decoding = "utf-8" if encoding == "ascii" else encoding
    out, err = result.stdout.decode(decoding), result.stderr.decode(decoding)
    assert "Traceback" not in out + err
    assert result.returncode == 0, err
    return out + err


def test_stand_ins() -> None:
    assert [stand_in(char) for char in "•—→·▶♣♦♥♠ěé…─│┼✗"] == [
        "*", "-", "->", "-", ">", "C", "D", "H", "S", "e", "e", "...", "-", "|", "+", "x",
    ]  # fmt: skip
    assert stand_in("\u4e2d") == "?"


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_rulebooks(encoding: str) -> None:
    assert "Scoring" in kalooki(encoding, "rules", "classic")
    assert "goal_score: 500" in kalooki(encoding, "rules", "czech-500")


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_rules_at_the_table(encoding: str) -> None:
    out = kalooki(encoding, "play", "--fast", stdin="rules\nquit\n")
    assert "* When a player goes out, every other player adds" in out
    assert "End of input" in out or "saved" in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_hot_seat(encoding: str) -> None:
    out = kalooki(encoding, "play", "--humans", "ann,bo", "--bots", "greedy", "--fast", stdin="\n\nquit\n")
    assert "Pass to ann - press Enter" in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_scripted_game(encoding: str) -> None:
    out = kalooki(encoding, "play", str(GOLDEN / "scripts" / "bots-game.yaml"))
    assert "each draws a card for the deal (ann 4H, bob JD, cid 2H, dee QD)" in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_simulate_compare(encoding: str) -> None:
    out = kalooki(encoding, "simulate", "classic", "--compare-set", "opening_threshold=40", "--games", "4")
    assert "opening_threshold 51 -> 40" in " ".join(out.split())


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_narrow_variant_diff(encoding: str) -> None:
    out = kalooki(encoding, "variants", "diff", "classic", "kalooki-40", columns=30)
    assert out.startswith("classic -> kalooki-40\n")
    assert "joker_penalty: 25 -> 15" in out


@pytest.mark.parametrize("encoding", ENCODINGS)
def test_accented_names_in_saves_logs_and_resume(encoding: str, tmp_path: Path) -> None:
    kalooki(
        encoding,
        "play",
        "--name",
        "Zoë",
        "--seed",
        "3",
        "--log",
        "z.jsonl",
        "--fast",
        stdin="quit\n",
        cwd=tmp_path,
    )
    zoe = "Zoë" if encoding == "latin-1" else "Zoe"
    dot = "·" if encoding == "latin-1" else "-"
    assert f"classic {dot} {zoe}, bob, cid, dee {dot} hand 1, turn 1" in kalooki(encoding, "saves")
    assert f"({zoe} to draw); totals: {zoe} 0" in kalooki(encoding, "replay", "z.jsonl", cwd=tmp_path)
    assert f"> {zoe} (you)" in kalooki(encoding, "resume", "1", "--fast", stdin="quit\n")


def test_an_accented_name_on_an_ascii_locale_command_line(tmp_path: Path) -> None:
    # With UTF-8 mode off under LC_ALL=C, Python reads Élodie's bytes as undecodable ones, and the name
    # was refused: "Invalid value for '--name': '\xc3\x89lodie': not UTF-8 text: byte 0xC3".
    environment = {**os.environ, "LC_ALL": "C", "PYTHONUTF8": "0", "KALOOKI_HOME": str(tmp_path)}
    environment.pop("PYTHONIOENCODING", None)

    def play(*arguments: bytes) -> subprocess.CompletedProcess[bytes]:
        command = [bytes(KALOOKI), b"play", b"--fast", *arguments]
        return subprocess.run(command, input=b"quit\n", capture_output=True, env=environment, timeout=120)

    seated = play(b"--name", "Élodie".encode())
    assert seated.returncode == 0, seated.stderr
    assert b"You against bob (greedy bot)" in seated.stdout
    hot_seat = play(b"--humans", "Élodie,Zoë".encode())
    assert hot_seat.returncode == 0, hot_seat.stderr
    # Bytes that are no UTF-8 stay refused, said as before.
    refused = play(b"--name", b"\xff")
    assert refused.returncode == 2
    assert b"not UTF-8 text: byte 0xFF" in refused.stderr
