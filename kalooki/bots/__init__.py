"""Bots."""
