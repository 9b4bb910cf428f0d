"""Where the built-in variants and the JSON Schemas are, installed or in a checkout."""

from __future__ import annotations

from pathlib import Path

_PACKAGE_DIR = Path(__file__).resolve().parent


def data_dir(kind: str) -> Path:
    """The folder of shipped data files of one kind (``"variants"`` or ``"schemas"``).

    A wheel carries them inside the package (``kalooki/data/<kind>``); a checkout or an
    editable install keeps them at the top of the repository, where people edit them.
    """
    installed = _PACKAGE_DIR / "data" / kind
    if installed.is_dir():
        return installed
    return _PACKAGE_DIR.parent / kind


def variants_dir() -> Path:
    return data_dir("variants")


def schemas_dir() -> Path:
    return data_dir("schemas")
