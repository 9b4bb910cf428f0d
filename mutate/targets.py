"""The rule modules under mutation testing, and which part of each."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    """The file, relative to the repository root."""
    functions: tuple[str, ...] = ()
    """Qualified names of the functions to mutate; empty: the whole file."""

    @property
    def module(self) -> str:
        return self.path.removesuffix(".py").replace("/", ".")

    def wants(self, qualname: str) -> bool:
        if not self.functions:
            return True
        return any(qualname == name or qualname.startswith(name + ".") for name in self.functions)


# The engine's turn and scoring code: drawing, laying, building, swapping, discarding, what a turn
# owes, the end of a hand and of the game, and the check of a loaded save's melds. The engine's layers
# live in one module each; these are the functions of each that are mutated.
ENGINE_SCORING = tuple(
    f"HandScoring.{name}"
    for name in (
        "hand_value",
        "_went_out",
        "abandon_hand",
        "_end_hand",
        "_check_game_end",
        "_lowest",
        "_game_end_event",
    )
)
ENGINE_TURN = tuple(
    f"TurnPlay.{name}"
    for name in (
        "_keep",
        "_discard_draw_allowed",
        "_card_usable",
        "_draw",
        "_stock_exhausted",
        "owed_cards",
        "_must_use_owed",
        "_can_lay",
        "_solver_lays",
        "_turn_debts",
        "_discard",
    )
)
ENGINE_LAYING = tuple(
    f"Laying.{name}"
    for name in (
        "apply",
        "_take_from_hand",
        "_check_keep",
        "_remove",
        "_meld",
        "_table_meld",
        "_build",
        "_swap",
        "_lay",
        "_dead_end",
        "_position_key",
        "_work_out",
        "_swap_leads_on",
        "_unpayable_debt",
        "_known_lay_pays",
        "_finds_paying_lay",
        "_can_pay_both",
        "_after_laying",
    )
)

TARGETS: tuple[Target, ...] = (
    Target("melds", "kalooki/melds.py"),
    Target("run-refusals", "kalooki/run_refusals.py"),
    # How many jokers cards put into a set together free, and whether any swap ever could.
    Target("set-release", "kalooki/set_release.py"),
    Target("rules", "kalooki/rules.py"),
    Target("scoring", "kalooki/scoring.py", ENGINE_SCORING),
    Target("turn", "kalooki/turn.py", ENGINE_TURN),
    # _SwapSearch: the budget each laying's search for joker swaps starts with.
    Target("laying", "kalooki/laying.py", (*ENGINE_LAYING, "_SwapSearch")),
    Target("gamejson", "kalooki/gamejson.py", ("GameJson._validate_restored",)),
    Target("cards", "kalooki/cards.py"),
    Target("variant", "kalooki/variant.py"),
    Target("variant-checks", "kalooki/variant_checks.py"),
    # The most a first meld of so many cards is worth: validate's bound on a reachable opening_threshold.
    Target("opening-bound", "kalooki/opening_bound.py"),
    Target("solver", "kalooki/solver.py"),
    Target("solver-candidates", "kalooki/solver_candidates.py"),
    Target("solver-lines", "kalooki/solver_lines.py"),
    Target("solver-builds", "kalooki/solver_builds.py"),
    Target("solver-search", "kalooki/solver_search.py"),
    Target("solver-layout", "kalooki/solver_layout.py"),
    Target("solver-parts", "kalooki/solver_parts.py"),
    Target("cardstate", "kalooki/cardstate.py"),
    Target("candidates", "kalooki/candidates.py"),
    Target("legal", "kalooki/legal.py"),
    Target("table-plays", "kalooki/table_plays.py"),
    Target("statecheck", "kalooki/statecheck.py"),
    Target("turncheck", "kalooki/turncheck.py"),
    Target("dealcheck", "kalooki/dealcheck.py"),
    Target("snapshot", "kalooki/snapshot.py"),
    Target("view", "kalooki/view.py"),
)
