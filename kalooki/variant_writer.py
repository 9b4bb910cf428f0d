"""A variant written back out: the complete YAML file ``kalooki variants show`` prints, one value as
YAML, and the knobs on which two variants differ (``kalooki variants diff``, ``kalooki new``).

What :func:`variant_to_yaml` writes loads back (:mod:`kalooki.loader`) to the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from yaml.nodes import ScalarNode
from yaml.resolver import Resolver

from kalooki.loader import DEFAULT_ORIGIN, Origin
from kalooki.variant import KNOB_NAMES, Variant

__all__ = ["variant_differences", "variant_to_yaml", "yaml_scalar"]

_YAML11_RESOLVER = Resolver()
_PLAIN_SAFE = re.compile(r"[A-Za-z][A-Za-z0-9 _.,;()/+-]*[A-Za-z0-9_.)]|[A-Za-z]")


def yaml_scalar(value: Any) -> str:
    """One value written as YAML that this project's loader reads back as the same value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, list):
        return "[" + ", ".join(yaml_scalar(item) for item in value) + "]"
    text = str(value)
    if _PLAIN_SAFE.fullmatch(text) and _reads_as_text(text):
        return text
    return _double_quoted(text)


def _reads_as_text(text: str) -> bool:
    # Quote what YAML 1.1 tools would read as something else too (yes, on, 1:30, ...).
    tag: str = _YAML11_RESOLVER.resolve(ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    return tag == "tag:yaml.org,2002:str"


def _double_quoted(text: str) -> str:
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif char == "\n":
            out.append("\\n")
        elif code < 0x20 or code == 0x7F or 0x80 <= code <= 0x9F:
            out.append(f"\\x{code:02x}")
        elif 0xD800 <= code <= 0xDFFF or code in (0xFFFE, 0xFFFF):
            out.append(f"\\u{code:04x}")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def variant_to_yaml(variant: Variant, origins: Mapping[str, Origin] | None = None) -> str:
    """The variant as a complete YAML file (every knob, no ``extends``), which loads back to the same rules.

    With ``origins``, each line ends with a comment saying where its value came from.
    """
    lines: list[tuple[str, str]] = []
    for name in ("name", "description", *KNOB_NAMES):
        value = getattr(variant, name)
        if name == "description" and not value:
            continue
        comment = str(origins.get(name, DEFAULT_ORIGIN)) if origins is not None else ""
        lines.append((f"{name}: {yaml_scalar(value)}", comment))
    width = max(len(text) for text, _ in lines)
    return "".join(
        f"{text.ljust(width)}  # {comment}\n" if comment else f"{text}\n" for text, comment in lines
    )


def variant_differences(first: Variant, second: Variant) -> list[tuple[str, Any, Any]]:
    """The knobs on which two variants differ, in the model's order: ``(knob, first value, second value)``."""
    return [
        (name, getattr(first, name), getattr(second, name))
        for name in KNOB_NAMES
        if getattr(first, name) != getattr(second, name)
    ]
