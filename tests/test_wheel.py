"""The wheel ``pip install .`` builds holds everything an installed kalooki reads at run time: every
module, the built-in variants, the schemas, the browser table's files, and the console script.

Built from a copy of the source (setuptools writes ``build/`` beside the sources), offline, with
the setuptools the dev extra installs.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALLED_AS = {
    "kalooki": "kalooki",
    "cli": "kalooki_cli",
    "net": "kalooki_net",
    "variants": "kalooki/data/variants",
    "schemas": "kalooki/data/schemas",
}
"""The source folders the wheel is made of, and where each is installed (pyproject.toml's packages
and package-dir)."""
SHIPPED = tuple(INSTALLED_AS)


def source_files(folder: str) -> list[Path]:
    """The files of a shipped folder a user's copy has: no caches, no tests' leftovers."""
    return sorted(
        path.relative_to(ROOT / folder)
        for path in (ROOT / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix != ".pyc"
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> zipfile.ZipFile:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    for folder in SHIPPED:
        shutil.copytree(ROOT / folder, source / folder, ignore=shutil.ignore_patterns("__pycache__"))
    offline = ["--no-deps", "--no-build-isolation", "--no-index", "--quiet"]
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", *offline, "--wheel-dir", str(work / "dist"), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (path,) = (work / "dist").glob("kalooki-*.whl")
    return zipfile.ZipFile(path)


@pytest.mark.parametrize("folder", SHIPPED)
def test_the_wheel_holds_every_file_of_a_shipped_folder(wheel: zipfile.ZipFile, folder: str) -> None:
    # A file the package data's patterns miss (a new kind of web asset, say) would be missing from
    # every installed copy while the checkout, where the tests run, still has it.
    names = set(wheel.namelist())
    missing = [
        f"{folder}/{file}"
        for file in source_files(folder)
        if f"{INSTALLED_AS[folder]}/{file.as_posix()}" not in names
    ]
    assert not missing, f"not in the wheel (pyproject.toml's packages or package-data): {missing}"


def test_the_wheel_installs_the_command_and_the_bots(wheel: zipfile.ZipFile) -> None:
    (entry_points,) = (name for name in wheel.namelist() if name.endswith(".dist-info/entry_points.txt"))
    text = wheel.read(entry_points).decode()
    assert "kalooki = kalooki_cli.launch:main" in text
    for bot in ("random", "greedy", "expert"):
        assert f"{bot} = kalooki.bots:" in text
