"""scikit-learn's estimator checks for the learners with a restricted input domain (Winnow:
x ∈ {0, 1}ᵈ; Weighted Majority and Randomized Weighted Majority: x ∈ {−1, +1}ᵈ, each feature
an expert's advice): a documented, tested exemption.

[Decision] The domain is the algorithm (Littlestone 1988; Littlestone & Warmuth 1994): on
any other value the update w_j ← w_j·β^{…} is not defined, and mapping real inputs into the
domain (e.g. by sign) would silently run another algorithm. scikit-learn's input tags cannot
declare such a domain (``positive_only`` says x ≥ 0, which Winnow declares, but not
x ∈ {0, 1}; nothing says x ∈ {−1, +1}), and its checks draw real-valued data (blobs, normal
noise), which the learners refuse with one error naming the cell and the domain. So the
checks that feed such data cannot pass by design; every other check must pass. This test runs
every check and asserts exactly that: the checks that fail are the listed ones, and each of
them fails on the domain error and nothing else. The same properties on in-domain streams
(fit/partial_fit, pickling, dtypes, sparse input, n_features_in_, …) are tested in
tests/learners/test_experts.py and the contract suite's domain-aware tests.
"""
import warnings

import pytest
from sklearn.utils.estimator_checks import check_estimator

import olc

from ._support import DOMAIN_RESTRICTED

#: The checks that draw real-valued X (or X with negative values for the {0, 1} domain).
DOMAIN_CHECKS = {
    "check_fit_score_takes_y", "check_estimators_overwrite_params",
    "check_dont_overwrite_parameters", "check_estimators_fit_returns_self",
    "check_readonly_memmap_input", "check_n_features_in_after_fitting",
    "check_estimators_dtypes", "check_dtype_object", "check_pipeline_consistency",
    "check_estimators_nan_inf", "check_estimator_sparse_tag", "check_estimator_sparse_array",
    "check_estimator_sparse_matrix", "check_estimators_pickle",
    "check_f_contiguous_array_estimator", "check_classifier_data_not_an_array",
    "check_classifiers_classes", "check_estimators_partial_fit_n_features",
    "check_classifiers_train", "check_supervised_y_2d", "check_methods_sample_order_invariance",
    "check_methods_subset_invariance", "check_fit2d_1feature", "check_dict_unchanged",
    "check_fit_idempotent", "check_fit_check_is_fitted", "check_n_features_in",
    "check_fit2d_predict1d",
}
#: {−1, +1} contains negative values: the learner cannot declare positive_only, and the
#: check that feeds negative values to learners without the tag expects them accepted.
EXPECTED = {"winnow": DOMAIN_CHECKS,
            "weighted-majority": DOMAIN_CHECKS | {"check_positive_only_tag_during_fit"},
            "randomized-weighted-majority":
                DOMAIN_CHECKS | {"check_positive_only_tag_during_fit"}}


def _chain(exc):
    while exc is not None:
        yield exc
        exc = exc.__cause__ or exc.__context__


def test_the_exempted_learners_are_the_domain_restricted_ones():
    assert sorted(EXPECTED) == sorted(DOMAIN_RESTRICTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_only_the_checks_that_feed_out_of_domain_data_fail_and_only_on_the_domain(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = check_estimator(olc.make(name), on_fail=None)
    failed = {}
    for r in results:
        if r["status"] == "failed":
            failed.setdefault(r["check_name"], []).append(r["exception"])
    assert set(failed) == EXPECTED[name]
    passed = {r["check_name"] for r in results if r["status"] == "passed"}
    assert len(passed) >= 20                       # the domain-free checks run and pass
    for check, errors in failed.items():
        for exc in errors:
            texts = " | ".join(str(e) for e in _chain(exc))
            assert "input domain" in texts, f"{name}: {check} failed for another reason: " \
                                            f"{texts[:300]}"
