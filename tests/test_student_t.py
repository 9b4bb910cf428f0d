"""The t quantile every simulation's intervals use, in plain Python so that a plain ``simulate`` does not
import scipy.stats (longer than a short simulation takes to play): scipy's own figures."""

from __future__ import annotations

import sys

import pytest
from scipy import stats

from kalooki.student_t import t_quantile


@pytest.mark.parametrize("df", [1, 2, 3, 4, 5, 7, 10, 29, 30, 99, 299, 1000, 12_345, 10**6])
@pytest.mark.parametrize("probability", [0.75, 0.9, 0.95, 0.975, 0.995, 0.9995])
def test_the_quantile_is_scipys(df: int, probability: float) -> None:
    # Far below the six places a report keeps; at a million degrees of freedom lgamma's differences lose some.
    close = 1e-11 if df <= 10_000 else 5e-9
    assert t_quantile(probability, df) == pytest.approx(float(stats.t.ppf(probability, df)), rel=close)


@pytest.mark.parametrize(("probability", "df"), [(0.5, 10), (1.0, 10), (0.975, 0), (0.975, -1)])
def test_what_it_does_not_take_is_refused(probability: float, df: int) -> None:
    with pytest.raises(ValueError, match="t_quantile takes"):
        t_quantile(probability, df)


@pytest.mark.parametrize("duplicate", [False, True])
def test_a_plain_simulation_imports_neither_scipy_nor_numpy(duplicate: bool) -> None:
    """A simulation without a comparison reports means and rates with intervals over games or deals:
    none needs scipy, nor numpy (its import took longer than these intervals take in plain Python)."""
    import subprocess

    code = (
        "import sys\n"
        "from kalooki.loader import load_variant\n"
        "from kalooki.simulate import simulate\n"
        f"result = simulate(load_variant('classic'), ['random', 'greedy'], 4, 1, duplicate={duplicate})\n"
        "result.to_json()\n"
        "print('scipy' in sys.modules, 'numpy' in sys.modules)\n"
    )
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == "False False"
