"""Contract 16: learning does not import scikit-learn's validation stack, pandas or pyplot.

``import sklearn`` alone imports scipy.stats and pandas (~2 s); pyplot ~1 s. A user's first
``olc`` command pays for neither: learners validate common inputs themselves
(``olc.learners._framework.features_in``, ``olc.learners._framework.constraints``) and
figures use matplotlib's object API. scikit-learn is imported only where a caller already uses it (other input types,
``score``, data readers that are scikit-learn's).
"""
import subprocess
import sys
import textwrap

HEAVY = ("sklearn", "pandas", "scipy.stats", "matplotlib.pyplot")


def _modules_after(code, tmp_path, heavy=HEAVY):
    script = textwrap.dedent(code) + textwrap.dedent("""
        import sys
        print(",".join(m for m in %r if m in sys.modules))
        """ % (heavy,))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=tmp_path, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def test_fit_predict_and_the_online_protocol_stay_light(tmp_path):
    loaded = _modules_after("""
        import numpy as np, scipy.sparse as sp
        import olc
        rng = np.random.default_rng(0)
        X = rng.standard_normal((50, 4)); y = (X[:, 0] > 0).astype(int)
        for name in ("perceptron", "pa-i"):
            learner = olc.make(name).fit(X, y)
            learner.partial_fit(sp.csr_matrix(X), y).predict(X)
            olc.make(name).set_params().get_params()
            repr(learner)
        olc.make("pa-regression").fit(X, X[:, 0]).predict(X)
        olc.progressive(olc.make("pa"), X, y)
        try:
            olc.make("pa-i", C=-1).fit(X, y)
        except ValueError:
            pass
        """, tmp_path)
    assert loaded == "", f"imported {loaded}"


def test_dense_data_does_not_import_scipy_sparse(tmp_path):
    # scipy.sparse costs ~0.3 s to import: dense work (what ``olc compare`` does) never
    # needs it, since an input can only be sparse once scipy.sparse is loaded (olc._util.sparse)
    loaded = _modules_after("""
        import numpy as np
        import olc
        rng = np.random.default_rng(0)
        X = rng.standard_normal((50, 4)); y = (X[:, 0] > 0).astype(int)
        for name in ("perceptron", "pa-i", "e-omm", "alma2", "regularized-pa"):
            olc.make(name).fit(X, y).predict(X)
        olc.make("pa-i").partial_fit(X, y, classes=[0, 1]).decision_function(X)
        olc.make("pa-regression").fit(X, X[:, 0]).predict(X)
        olc.progressive(olc.make("pa"), X, y).mistakes
        """, tmp_path, heavy=("scipy.sparse",))
    assert loaded == "", f"imported {loaded}"


def test_sparse_detection_without_scipy_sparse_loaded_and_with_it():
    import numpy as np
    import scipy.sparse as sp

    from olc._util.sparse import issparse, scipy_sparse

    assert scipy_sparse() is sp
    X = np.eye(3)
    assert not issparse(X) and not issparse([[1.0]]) and not issparse(None)
    for make in (sp.csr_matrix, sp.csr_array, sp.csc_matrix, sp.coo_array):
        assert issparse(make(X))


def test_a_figure_does_not_import_pyplot(tmp_path):
    loaded = _modules_after("""
        from olc.report.figures import plot_cumulative_error
        plot_cumulative_error({"a": [1.0, 0.5, 0.4]}, "curve.png")
        """, tmp_path)
    assert "matplotlib.pyplot" not in loaded
    assert (tmp_path / "curve.png").stat().st_size > 1000
