"""The mistake bounds of Kitani's lecture notes on online linear classification (Kitani,
scribe Chen; docs/references.md [kitani-notes]) and the classical Weighted Majority bound of
Littlestone & Warmuth (1994), as functions of the quantities they name.

[Decision] "log" in the notes' Eqs. (1) and (2) is the natural logarithm: the derivations
behind them (multiplicative weights: 1 + x ≤ eˣ, ln(1 − η) ≥ −η − η² for η ≤ 1/2) produce
ln N; read as log₂ the bounds would be larger, so ln is also the stricter test. "log₂" is
written explicitly where the notes (Eq. 42) and the 2.41 form use it.
"""
from __future__ import annotations

import math


def perceptron(R, gamma):
    """Theorem 1 (§3.2, Eq. 3): M ≤ R²/γ², R = max_t ‖x_t‖, γ = min_t y_t⟨w*, x_t⟩ for a
    unit w* (any separator; the largest margin gives the smallest bound)."""
    return (R / gamma) ** 2


def winnow(k, N):
    """Eq. (42) (§4.2): m < 2 + 3k(log₂ N + 1) for a monotone k-literal disjunction over N
    features, Winnow with threshold N and factor 2 (β = 1: "weights are decreased by a
    factor of 2")."""
    return 2.0 + 3.0 * k * (math.log2(N) + 1.0)


def winnow_negative(m_positive):
    """Eq. (37) (§4.2): m⁻ < 2 + 2m⁺ (mistakes on negatives from those on positives)."""
    return 2.0 + 2.0 * m_positive


def weighted_majority(m, N, eta):
    """Eq. (1) (§1.1): M − m ≤ (1 + 2η)m + 2 ln N/η, i.e. M ≤ 2(1 + η)m + 2 ln N/η, for
    every expert with m mistakes (the best gives the smallest bound)."""
    return 2.0 * (1.0 + eta) * m + 2.0 * math.log(N) / eta


def weighted_majority_lw(m, N, eta):
    """Littlestone & Warmuth (1994), §2: with every wrong expert's weight multiplied by
    β = 1 − η, M ≤ (ln N + m ln(1/β)) / ln(2/(1 + β)). Derivation: on each mistake at least
    half the total weight is multiplied by β, so the total is ≤ N((1 + β)/2)^M, and it is
    ≥ the best expert's β^m. At η = 1/2: (m + log₂ N)/log₂(4/3) ≈ 2.41(m + log₂ N)."""
    beta = 1.0 - eta
    return (math.log(N) + m * math.log(1.0 / beta)) / math.log(2.0 / (1.0 + beta))


def randomized_weighted_majority(m, N, eta):
    """Eq. (2) (§1.2): E[R] = E[M] − m ≤ ηm + ln N/η, i.e. E[M] ≤ (1 + η)m + ln N/η."""
    return (1.0 + eta) * m + math.log(N) / eta


#: Shown in the tables next to each bound.
FORMULAS = {
    "perceptron": "(R/γ)² — Theorem 1, §3.2 Eq. (3)",
    "perceptron-max-margin": "(R/γ*)², γ* the largest margin — Theorem 1 with the best w*",
    "winnow": "2 + 3k(log₂N + 1) — §4.2 Eq. (42)",
    "weighted-majority": "2(1+η)m + 2 ln N/η — §1.1 Eq. (1)",
    "weighted-majority-lw": "(ln N + m ln(1/β))/ln(2/(1+β)), β = 1−η; = 2.41(m + log₂N) at "
                            "η = ½ — Littlestone & Warmuth 1994 §2",
    "randomized-weighted-majority": "(1+η)m + ln N/η — §1.2 Eq. (2)",
}
