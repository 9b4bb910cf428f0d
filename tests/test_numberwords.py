"""Numbers a player writes in words, or with a word or a comment stuck to them."""

from __future__ import annotations

import pytest

from kalooki.numberwords import number_hint, words_value


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("zero", 0),
        ("Four", 4),
        ("fifteen", 15),
        ("forty", 40),
        ("twenty-five", 25),
        ("fifty one", 51),
        ("two hundred and fifty", 250),
        ("a hundred", None),
        ("one hundred", 100),
        ("nine hundred ninety-nine", 999),
        ("one thousand", 1000),
        ("two thousand five hundred", 2500),
        # Said the way a table talks, but not one number: no guess.
        ("two fifty", None),
        ("fifty fifty", None),
        ("one hundred zero", None),
        ("forty one two", None),
        ("thousand", None),
        ("many", None),
        ("", None),
    ],
)
def test_words_value(text: str, value: int | None) -> None:
    assert words_value(text) == value


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("forty", "write numbers in digits (forty is 40)"),
        ("40 points", "write the number alone (40)"),
        # A number in words with its unit had no hint at all.
        ("three cards", "write the number alone, in digits (3)"),
        ("Forty Points", "write the number alone, in digits (40)"),
        ("two hundred and fifty points", "write the number alone, in digits (250)"),
        ("three fish", ""),
        ("cards", ""),
        ("1,000", "write the number without its commas (1000)"),
        ("12,345,678", "write the number without its commas (12345678)"),
        ("1,00", ""),
        ("15pts", "write the number alone (15)"),
        ("40# to open", "a comment needs a space before its '#' (40 # to open)"),
        # A comma after the number had no hint; two numbers were told to write the first alone.
        ("40,", "write the number alone (40)"),
        ("40;", "write the number alone (40)"),
        # `kalooki variants` shows a shortest run of 3 as "3+": run_minimum: 4+ had no hint.
        ("4+", "write the number alone (4)"),
        ("1 or 11", "write one number"),
        ("40-51", "write one number"),
        ("40", ""),
        # A percent sign, a currency sign, a single letter or a word of about had no hint.
        (
            "40%",
            "a knob takes a count, not a percentage: write the number alone (40, if that is meant)",
        ),
        (
            "40 per cent",
            "a knob takes a count, not a percentage: write the number alone (40, if that is meant)",
        ),
        ("£25", "write the number alone (25)"),
        ("25p", "write the number alone (25)"),
        ("4 p", "write the number alone (4)"),
        ("2x", "write the number alone (2)"),
        ("40!", "write the number alone (40)"),
        ("~40", "write the number alone (40)"),
        ("about 40", "write the number alone (40)"),
        ("at least 3", "write the number alone (3)"),
        (">=40", "write the number alone (40)"),
        # More than 40 to open is 41: no guess.
        (">40", ""),
        # Digits of another script and a word processor's quotes had no hint.
        ("４", "write the number in the digits 0-9 (4)"),
        ("٤٠", "write the number in the digits 0-9 (40)"),
        ("“4”", "write the number without the quotes (4)"),
        ("‘40’", "write the number without the quotes (40)"),
        ("“four”", ""),
        ("“", ""),
        ("4O", ""),
        ("4OO", ""),
        ("4l", ""),
        ("lots", ""),
    ],
)
def test_number_hint(text: str, hint: str) -> None:
    assert number_hint(text) == hint
