"""Harrington et al.'s Table 1 / Figure 1 claims (§4.1) tested on hand-made records: one set
where each statement holds, one where it is flipped, so each verdict is shown to depend on
the data (as test_omm_adult.py does)."""
import pytest

from olc.experiments.obpm import claims as C
from olc.experiments.obpm.artificial import N_FIGURE, TAUS
from olc.experiments.obpm.data import NOISE_LEVELS

RUNS = 3


def _rec(family, e, params, test_error, train_mistakes=5.0, margin=0.01, updates=100.0, i=0):
    return {"algorithm": family, "noise": e, "params": dict(params),
            "test_error": test_error + 0.001 * (i - 1), "train_mistakes": train_mistakes,
            "margin": margin, "updates": updates}


def records(obpm=0.05, alma=0.06, perceptron=0.10, alma_margin=0.006, obpm_margin=0.02,
            margin_rises=True, small_tau_falls=True, updates_rise=True, noise_gap=0.0):
    """Records of the three families at every noise level (ALMA and the Perceptron one
    configuration each; OBPM every τ and N of Figure 1, τ = 0.3, N = 100 its best)."""
    out = []
    for e in NOISE_LEVELS:
        extra = noise_gap
        for i in range(RUNS):
            out.append(_rec("Perceptron", e, {}, perceptron + e, 20.0, 0.001, 500.0, i))
            alma_error = alma if e == 0 else obpm + e + extra   # with noise: level with OBPM
            out.append(_rec("ALMA", e, {"B": 1.0, "C": 1.0}, alma_error, 3.0, alma_margin,
                            300.0, i))
            for tau in TAUS:
                for k, N in enumerate(N_FIGURE):
                    best = tau == 0.3 and N == 100
                    margin = obpm_margin * (1 + (k if margin_rises else -k) / 10)
                    mistakes = (10.0 - k if small_tau_falls else 5.0 + k) if tau == TAUS[0] \
                        else (0.0 if best else 1.0)
                    updates = 100.0 * (1 + (k if updates_rise else -k))
                    out.append(_rec("OBPM", e, {"tau": tau, "N": N},
                                    obpm + e if best else obpm + e + 0.02, mistakes, margin,
                                    updates, i))
    return out


def verdict(claim, recs):
    return claim(C.Outcome(table_1=recs))[0]


def test_obpm_below_the_perceptron():
    assert verdict(C._obpm_below_perceptron_t1, records()) is True
    assert verdict(C._obpm_below_perceptron_t1, records(perceptron=0.04)) is False


def test_alma_and_obpm_similar_with_noise_obpm_better_without():
    assert verdict(C._alma_vs_obpm_t1, records()) is True
    # without noise ALMA below OBPM: fails
    assert verdict(C._alma_vs_obpm_t1, records(alma=0.03)) is False
    # with noise far apart (intervals disjoint): fails
    assert verdict(C._alma_vs_obpm_t1, records(noise_gap=0.2)) is False


def test_margin_rises_with_n_at_the_price_of_updates():
    assert verdict(C._margin_n, records()) is True
    assert verdict(C._margin_n, records(margin_rises=False)) is False
    assert verdict(C._margin_n, records(updates_rise=False)) is False


def test_obpm_margin_above_alma():
    assert verdict(C._margin_vs_alma, records()) is True
    assert verdict(C._margin_vs_alma, records(alma_margin=0.5)) is False


def test_small_tau_needs_larger_n():
    assert verdict(C._small_tau_needs_n, records()) is True
    assert verdict(C._small_tau_needs_n, records(small_tau_falls=False)) is False


def test_a_part_that_did_not_run_is_not_applicable():
    for claim in (C._obpm_below_perceptron_t1, C._alma_vs_obpm_t1, C._margin_n,
                  C._margin_vs_alma, C._small_tau_needs_n):
        with pytest.raises(LookupError):
            claim(C.Outcome())
