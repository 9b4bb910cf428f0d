"""The play screen's help: its commands as the variant offers them, how cards and table jokers are
written, and the variant's key rules; ``help swap`` and its like, one command's rows and its rules."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.table import Table
from rich.text import Text

from kalooki import rules
from kalooki.cards import parse_cards
from kalooki.joker_layers import BY_LAYER
from kalooki.rulebook import key_rules
from kalooki.variant import Variant

from .prompt_commands import COMMANDS, help_rows, topic_rules
from .render import DIM, HELD, card_label, glyphs, plain_cards, set_joker_suits


def render_help(
    console: Console, variant: Variant, commands: tuple[tuple[str, str], ...] = COMMANDS, *, topic: str = ""
) -> None:
    """The play screen's help: ``commands`` as this variant offers them, what cards are written as, the
    jokers' notes and the key rules; with a ``topic`` (``help meld``), that command's rows alone."""
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold cyan", no_wrap=True)
    grid.add_column(overflow="fold")
    for command, meaning in help_rows(variant, commands, topic):
        grid.add_row(Text(command), Text(meaning))  # text, not markup: "[low|high]" is part of a command
    if topic:
        console.print(grid)
        heading, topic_lines = topic_rules(variant, topic)
        if topic_lines:
            console.print(Text(heading, style="bold"))
            console.print(bullet_list(console, topic_lines))
        return
    console.print(Text("Commands", style="bold"))
    console.print(grid)
    # Where the pack has no jokers, neither JK nor what a joker on the table stands for is explained.
    joker = ", JK (a joker)" if variant.jokers else ""
    drawn = card_label(parse_cards("9H")[0], plain_cards(console)) + "*"  # the hand's mark: hand_groups
    cards = f"Cards: 7H, TC or 10C, QS{joker}; suits C D H S. In your hand {drawn} is the card you just drew."
    console.print(Text(cards, style=DIM))
    if variant.jokers:
        joker_help(console, variant)
    console.print(Text(f"Key rules of {variant.name}", style="bold"))
    console.print(bullet_list(console, key_rules(variant)))


def bullet_list(console: Console, lines: Iterable[str]) -> Table:
    """``lines`` as a list of bullets. A grid, not one Text a line: a line that wraps goes on under its
    words, and the bullets stand out alone."""
    bullets = Table.grid(padding=(0, 1))
    bullets.add_column(no_wrap=True)
    bullets.add_column()
    for line in lines:
        bullets.add_row(glyphs("•", plain_cards(console)), Text(line))
    return bullets


def joker_help(console: Console, variant: Variant) -> None:
    """What the table's joker notes mean: JK(9♥), a set's JK(9♣/♠), and one that can never be taken."""
    letters = plain_cards(console)
    nine = card_label(parse_cards("9H")[0], letters)
    # A set's joker stands for the suits a card that frees it may be, as joker_meaning writes them:
    # JK(9♣/♠), or every suit where suits may repeat.
    either = nine[:-1] + set_joker_suits((0, 3), letters, variant)
    which = "a suit the set lacks" if rules.suits_must_differ(variant) else "any suit"
    # Where a joker's layer decides who may take it, the table names one built onto another's meld.
    built_on = variant.joker_taker == BY_LAYER and rules.may_ever_swap(variant)
    layer = f"; JK({nine}, laid by bob): bob built it on and may not take it back" if built_on else ""
    console.print(
        Text(
            f"On the table JK({nine}) is what a joker stands for (JK({either}) in a set: a nine of {which});"
            f" JK({nine}, {HELD}): it can never be taken{layer}.",
            style=DIM,
        )
    )


def render_rules(console: Console, variant: Variant, status: Sequence[Text] = ()) -> None:
    """The ``rules`` command at the play prompt: the whole rulebook, as ``kalooki rules`` formats it, then
    where it ends and how to go on: in one's turn the turn's ``status`` (what it still needs), which the
    rulebook had pushed off the screen."""
    try:
        from kalooki.rulebook import render_rulebook
    except ImportError:  # the rulebook is optional: the key rules are always at hand
        render_help(console, variant)
        return
    from rich.markdown import Markdown  # only here: it is slow to import, and rules are rarely asked for

    console.print(Markdown(render_rulebook(variant), hyperlinks=False))
    back = "; Enter on an empty line draws the table again" if status else ""
    console.print(Text(f"End of the rulebook of {variant.name}: scroll up for its start{back}.", style=DIM))
    for line in status:
        console.print(line)
