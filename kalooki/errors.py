"""The project's exceptions: every one is a ``ValueError`` whose message quotes the input."""

from __future__ import annotations


class KalookiError(ValueError):
    """Base class for every error the library raises about its input."""
