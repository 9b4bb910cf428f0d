"""Kalooki: the rummy game, with house rules as YAML variant files.

The library's names live in their modules (importing this package loads none of them):

- :mod:`kalooki.loader`: ``load_variant`` (a built-in name or a file, with knobs set over it) and
  ``VariantError``; :mod:`kalooki.variant`: the ``Variant`` it gives (``Variant(**knobs)`` makes one in
  code, refusing a knob in the loader's words: :mod:`kalooki.knob_errors`' ``KnobError``, a ``VariantError``).
- :mod:`kalooki.engine`: ``Game`` (``legal_actions``, ``apply``, ``next_hand``, ``view``, ``to_json``,
  ``from_json``) and its errors, ``IllegalMoveError``, ``NotYourTurnError``, ``SetupError``,
  ``StateFormatError``, ``DealError``.
- :mod:`kalooki.moves`: the actions (``Draw``, ``Meld``, ``Build``, ``Swap``, ``Discard``, ``EndTurn``) and
  ``parse_move``; :mod:`kalooki.cards`: card codes (``parse_card``, ``format_card``).
- :mod:`kalooki.view`: ``PlayerView`` and ``LegalView``, what a bot is given; :mod:`kalooki.bots`: ``Bot``,
  ``register``, ``make_bot``; :mod:`kalooki.driver`: ``play_turn``, ``play_game``.
- :mod:`kalooki.solver`: ``solve``, ``best_opening``; :mod:`kalooki.simulate`: ``simulate``, ``compare``;
  :mod:`kalooki.events`: the typed events a move returns (``DrawEvent``, ``MeldEvent``, ...).

Every error the library raises about its input is a :class:`kalooki.errors.KalookiError` (a ``ValueError``)
whose message quotes that input.
"""

__version__ = "0.1.0"
