"""The HTML reports open in a real browser: headless Chromium (Debian's package) driven by Playwright.

Every chart is there and drawn, nothing is fetched from anywhere, and the console stays clean.
``make test`` installs Chromium when it is missing; the test skips only on a machine where no
browser could be installed, and never under CI.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

KALOOKI = str(Path(sys.executable).parent / "kalooki")
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

if BROWSER is None and os.environ.get("CI") != "true":  # pragma: no cover - a machine without Chromium
    pytest.skip("no Chromium here (make test installs Debian's chromium as root)", allow_module_level=True)


def open_report(path: Path, screenshot: Path) -> tuple[list[str], list[dict[str, float]], list[str]]:
    """The report's chart names, their drawn sizes, and every console error or failed request."""
    problems: list[str] = []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=BROWSER, args=["--no-sandbox"])
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 900})
            page.on(
                "console", lambda message: problems.append(message.text) if message.type == "error" else None
            )
            page.on("pageerror", lambda error: problems.append(str(error)))
            page.on("requestfailed", lambda request: problems.append(f"failed: {request.url}"))
            page.on(
                "request",
                lambda request: (
                    problems.append(f"fetched: {request.url}")
                    if not request.url.startswith("file://")
                    else None
                ),
            )
            page.goto(path.as_uri())
            charts = page.locator("figure.chart")
            names = [charts.nth(index).get_attribute("data-chart") or "" for index in range(charts.count())]
            sizes = [
                page.locator("figure.chart svg").nth(index).bounding_box() or {}
                for index in range(charts.count())
            ]
            page.screenshot(path=str(screenshot), full_page=True)
        finally:
            browser.close()
    return names, [dict(size) for size in sizes], problems


def test_comparison_report_in_chromium(tmp_path: Path) -> None:
    report = tmp_path / "compare.html"
    subprocess.run(
        [
            KALOOKI,
            "simulate",
            "classic",
            "--compare",
            "kalooki-40",
            "--bots",
            "greedy,random",
            "-n",
            "4",
            "-w",
            "1",
            "--report",
            str(report),
        ],
        check=True,
        capture_output=True,
    )
    names, sizes, problems = open_report(report, tmp_path / "compare.png")
    assert names == ["seat-wins", "bot-wins", "ecdf-turns", "ecdf-hands", "ecdf-loser_points", "ecdf-spread"]
    assert all(size.get("width", 0) > 300 and size.get("height", 0) > 150 for size in sizes)
    assert problems == []


def test_sweep_report_in_chromium(tmp_path: Path) -> None:
    report = tmp_path / "sweep.html"
    subprocess.run(
        [
            KALOOKI,
            "sweep",
            "classic",
            "--grid",
            "opening_threshold=0,51",
            "--grid",
            "run_minimum=3,4",
            "-n",
            "4",
            "-w",
            "1",
            "--report",
            str(report),
        ],
        check=True,
        capture_output=True,
    )
    names, sizes, problems = open_report(report, tmp_path / "sweep.png")
    assert len(names) == 7
    assert names[0] == "sweep-turns_per_hand"
    assert all(size.get("width", 0) > 300 for size in sizes)
    assert problems == []
