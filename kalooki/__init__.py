"""Kalooki: the rummy game, with house rules as YAML variant files."""

__version__ = "0.1.0"
