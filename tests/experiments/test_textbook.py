"""olc reproduce textbook: the Gaussian basis against its closed form, the chapter's learners
against its MATLAB loops written out in NumPy, AROW regression against the closed-form
(ridge) solution, the data processes, the command on a small slice, and bad input."""
import json
import os

import numpy as np
import pytest
from typer.testing import CliRunner

from olc.cli import app
from olc.features import GaussianBasis
from olc.experiments.textbook import data as D
from olc.experiments.textbook import spec as R


def invoke(*args):
    return CliRunner().invoke(app, list(map(str, args)))


# -- the Gaussian basis ----------------------------------------------------------------------
def test_gaussian_basis_is_its_closed_form():
    x = np.linspace(-3, 3, 7)
    phi = GaussianBasis(width=0.3).fit(x[:, None])
    points = np.array([-2.9, -0.2, 0.0, 1.234])
    got = phi.transform(points[:, None])
    hh = 2 * 0.3 ** 2                                  # the chapter's hh
    want = np.exp(-(points[:, None] - x[None, :]) ** 2 / hh)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=0)
    assert got.shape == (4, 7) and np.allclose(np.diag(phi.transform(x[:, None])), 1.0)
    # one σ away the value is e^{-1/2}; fixed centres in 2-D use the Euclidean distance
    assert phi.transform([[x[0] + 0.3]])[0, 0] == pytest.approx(np.exp(-0.5), rel=1e-12)
    centres = np.array([[0.0, 0.0], [1.0, 2.0]])
    two = GaussianBasis(width=2.0, centers=centres).fit(np.zeros((1, 2)))
    assert two.transform([[3.0, 4.0]])[0].tolist() == pytest.approx(
        [np.exp(-25 / 8), np.exp(-8 / 8)], rel=1e-12)
    assert list(two.get_feature_names_out()) == ["gaussian0", "gaussian1"]


def test_gaussian_basis_rejects_bad_parameters():
    with pytest.raises(ValueError, match="width"):
        GaussianBasis(width=0.0).fit(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="centers have 2 columns but X has 1"):
        GaussianBasis(centers=np.zeros((3, 2))).fit(np.zeros((2, 1)))
    with pytest.raises(ValueError, match="features"):
        GaussianBasis().fit(np.zeros((2, 1))).transform(np.zeros((2, 3)))


def test_gaussian_basis_in_a_pipeline_with_an_olc_regressor():
    from sklearn.pipeline import make_pipeline

    import olc

    x = np.linspace(-3, 3, 30)[:, None]
    y = D.sinc_target(x.ravel())
    model = make_pipeline(GaussianBasis(width=0.3),
                          olc.make("arow-regression", fit_intercept=False)).fit(x, y)
    assert np.sqrt(np.mean((model.predict(x) - y) ** 2)) < 0.1


# -- the learners are the chapter's loops -------------------------------------------------------
def _matlab_pa(X, y, lam):            # Fig. 31.3's loop
    t = np.zeros(X.shape[1])
    for xi, yi in zip(X, y):
        t = t + yi * max(0.0, 1 - t @ xi * yi) / (xi @ xi + lam) * xi
    return t


def _matlab_arow(X, y, lam):          # Fig. 31.7's loop
    mu, S = np.zeros(X.shape[1]), np.eye(X.shape[1])
    for xi, yi in zip(X, y):
        z = S @ xi
        b = xi @ z + lam
        m = yi * mu @ xi
        if m < 1:
            mu = mu + yi * (1 - m) * z / b
            S = S - np.outer(z, z) / b
    return mu


def _matlab_pa_regression(K, y, t, lam):   # Fig. 31.5's loop, from its random start t
    for ki, yi in zip(K, y):
        t = t + (yi - t @ ki) / (ki @ ki + lam) * ki
    return t


def _matlab_arow_regression(K, y, m, lam, passes):   # Fig. 31.9's loops
    S = np.eye(K.shape[1])
    for _ in range(passes):
        for ki, yi in zip(K, y):
            Sk = S @ ki
            b = ki @ Sk + lam
            m = m + Sk * (yi - ki @ m) / b
            S = S - np.outer(Sk, Sk) / b
    return m


@pytest.mark.parametrize("lam", [1.0, 0.3])
def test_classifiers_are_the_chapter_loops(lam):
    X, y = D.pa_classification(3, n=40)
    got = R.pa_classifier(lam).partial_fit(X, y, classes=[-1.0, 1.0]).coef_.ravel()
    np.testing.assert_allclose(got, _matlab_pa(X, y, lam), rtol=1e-10, atol=1e-12)
    X, y, _ = D.arow_outliers(4)
    got = R.arow_classifier(lam).partial_fit(X, y, classes=[-1.0, 1.0]).coef_.ravel()
    np.testing.assert_allclose(got, _matlab_arow(X, y, lam), rtol=1e-9, atol=1e-12)


def test_regressors_from_a_random_start_are_the_chapter_loops():
    """learn_from's residual identity: the catalogue regressors (which start at 0) on
    y − Kθ₀, plus θ₀, are the codes' loops started at θ₀."""
    x, y, theta0 = D.sinc_data(5, n=12)
    K = GaussianBasis(width=0.3).fit(x[:, None]).transform(x[:, None])
    np.testing.assert_allclose(R.learn_from(R.pa_regressor(0.7), K, y, theta0),
                               _matlab_pa_regression(K, y, theta0.copy(), 0.7),
                               rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(R.learn_from(R.arow_regressor(0.7), K, y, theta0, passes=4),
                               _matlab_arow_regression(K, y, theta0.copy(), 0.7, 4),
                               rtol=1e-8, atol=1e-10)


def test_arow_regression_is_recursive_least_squares_closed_form():
    """After P passes from N(μ₀, I) with noise λ, μ = argmin P·Σ(y − μᵀk)² + λ‖μ − μ₀‖², the
    ridge solution (λI + P·KᵀK)⁻¹(λμ₀ + P·Kᵀy) — by numpy.linalg.solve, on a few points."""
    rng = np.random.default_rng(0)
    K, y, mu0 = rng.normal(size=(5, 3)), rng.normal(size=5), rng.normal(size=3)
    for lam, passes in ((1.0, 1), (0.5, 3)):
        got = R.learn_from(R.arow_regressor(lam), K, y, mu0, passes)
        want = np.linalg.solve(lam * np.eye(3) + passes * K.T @ K,
                               lam * mu0 + passes * K.T @ y)
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # Fig. 31.9's own run carries the same check
    result = R.sinc_regression(0, "arow", passes=3)
    assert result["measures"]["rls_max_abs_difference"] < 1e-10


# -- the data processes ------------------------------------------------------------------------
def test_data_processes_follow_the_codes():
    X, y = D.pa_classification(0)
    assert X.shape == (200, 3) and (X[:, 2] == 1).all() and (y == 1).sum() == 100
    assert abs(X[y > 0, 0].mean() + 5) < 0.5 and abs(X[y < 0, 0].mean() - 5) < 0.5
    assert 4 < X[:, 1].std() < 6
    X, y, out = D.arow_outliers(0)
    assert X.shape == (50, 3) and out.sum() == 2 and (y[out] == 1).all()
    assert abs(X[out, 0].mean() + 5) < 3 and abs(X[(y > 0) & ~out, 0].mean() + 15) < 1
    x, y, t0 = D.sinc_data(0, permute=False)
    assert np.array_equal(x, np.linspace(-3, 3, 50)) and t0.shape == (50,)
    assert np.abs(y - D.sinc_target(x)).max() < 0.25      # noise 0.05·N(0,1)
    xp, _, _ = D.sinc_data(0, permute=True)
    assert sorted(xp) == pytest.approx(x) and not np.array_equal(xp, x)


# -- the command ------------------------------------------------------------------------------
def test_command_on_a_small_slice_and_rerun(tmp_path):
    out = tmp_path / "out"
    res = invoke("reproduce", "textbook", "--out", out, "--replications", 4, "--passes", 5)
    assert res.exit_code == 0, res.output
    for stem in ("figure_31_4", "figure_31_5", "figure_31_8", "figure_31_9"):
        for ext in ("png", "pdf"):
            assert (out / f"{stem}.{ext}").stat().st_size > 1000
    for name in ("figures_table.md", "figures_table.csv", "replications.md", "summary.md"):
        assert (out / name).is_file(), name
    report = json.loads((out / "results.json").read_text())
    assert report["settings"]["passes_31_9"] == 5
    assert len(report["figures"]["31.8"]["replications"]) == 4
    fig = report["figures"]["31.4"]["record"]
    assert set(fig["thetas"]) == {"1", "2", "3", "final"} and len(fig["y"]) == 200
    # the claims' measures are recomputable from the stored θ's
    X, y = D.pa_classification(0)
    assert fig["measures"]["train_error_final"] == pytest.approx(
        np.mean(np.where(X @ np.array(fig["thetas"]["final"]) >= 0, 1, -1) != y))
    summary = (out / "summary.md").read_text()
    assert summary.count("| textbook ch. 31, §31.") == 3
    table = (out / "figures_table.csv").read_text()
    again = invoke("reproduce", "textbook", "--out", out, "--replications", 4, "--passes", 5)
    assert again.exit_code == 0 and "runs: 8 (8 reused from the store, 0 computed)" in again.output
    assert (out / "figures_table.csv").read_text() == table


def test_one_figure_only(tmp_path):
    res = invoke("reproduce", "textbook", "--out", tmp_path, "--figures", "31.9",
                 "--replications", 0, "--passes", 2)
    assert res.exit_code == 0, res.output
    assert (tmp_path / "figure_31_9.png").is_file() and not (tmp_path / "figure_31_4.png").exists()
    claims = json.loads((tmp_path / "results.json").read_text())["claims"]
    assert [c["verdict"] for c in claims] == ["n/a", "n/a", "supported"]


def _one_line(res):
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1 and lines[0].startswith("error: "), res.output
    return lines[0]


def test_bad_input_one_line_and_nothing_written(tmp_path):
    out = tmp_path / "never"
    line = _one_line(invoke("reproduce", "textbook", "--out", out, "--figures", "31.4,31.7"))
    assert "--figures: unknown figure(s) ['31.7']; choose from 31.4, 31.5, 31.8, 31.9" in line
    assert not out.exists()
    assert "--n-jobs must be a positive integer or -1" in _one_line(invoke(
        "reproduce", "textbook", "--out", out, "--n-jobs", 0))
    assert not out.exists()
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert "is a file, not a folder" in _one_line(invoke("reproduce", "textbook", "--out",
                                                         afile))
    assert afile.read_text() == "x"
    if os.geteuid() != 0:   # root writes anywhere
        ro = tmp_path / "ro"
        ro.mkdir()
        ro.chmod(0o500)
        assert "read-only" in _one_line(invoke("reproduce", "textbook", "--out", ro / "out"))
        ro.chmod(0o700)
        assert list(ro.iterdir()) == []


def test_replications_keep_a_rates_interval_in_the_unit_range():
    """With few seeds the Student-t interval of an error rate leaves [0, 1] (0.24 ± 0.47 over
    3 seeds); the table gives a rate's interval inside the range, containing its mean, and
    keeps the t-interval (computed here from scipy's t quantile) where it is inside, and for
    measures that are not rates (the crossing can be negative)."""
    from scipy.stats import t as student

    from olc.experiments.textbook.tables import replication_rows

    errors, crossing, small = [0.45, 0.165, 0.095], [4.5, -3.7, 6.3], [0.40, 0.42, 0.44]
    reps = [{"train_error_1": e, "PA": {"crossing": c, "clean_error": s}}
            for e, c, s in zip(errors, crossing, small)]
    rows = {r["measure"]: r for r in replication_rows({"31.8": {"replications": reps}})}

    def t_ci(v):
        h = student.ppf(0.975, len(v) - 1) * np.std(v, ddof=1) / np.sqrt(len(v))
        return np.mean(v) - h, np.mean(v) + h

    assert t_ci(errors)[0] < 0                                    # the case in question
    rate = rows["train_error_1"]
    assert 0.0 <= rate["low"] < np.mean(errors) < rate["high"] <= 1.0 and rate["ci95"] is None
    for key, values in (("PA crossing", crossing), ("PA clean_error", small)):
        low, high = t_ci(values)
        assert rows[key]["low"] == pytest.approx(low) and rows[key]["high"] == pytest.approx(high)
        assert rows[key]["ci95"] == pytest.approx((high - low) / 2)
    assert rows["PA crossing"]["low"] < 0
