"""FOGD, Fourier Online Gradient Descent (Lu, Hoi, Wang, Zhao & Liu 2016, JMLR 17(47),
"Large scale online kernel learning", §4, Algorithm 1): scikit-learn's random Fourier
features (``sklearn.kernel_approximation.RBFSampler``, data-independent, so its map is drawn
once, from the seed, when learning starts) computed per row in the compiled step, followed by
online gradient descent on the hinge loss. The rule: ``olc._compiled.rules.feature_map``."""
from numbers import Integral, Real

import numpy as np

from .._compiled.layouts.feature_map import (FOGD_LAYOUT, OFFSET, W, Z, FeatureMapScal,
                                            block, n_scalars)
from ._framework.classifier import N_JOBS_CONSTRAINT, OnlineLinearClassifier
from ._framework.constraints import Interval
from ._framework.validation import SEED_LIMIT

__all__ = ["FOGD"]


class FOGD(OnlineLinearClassifier):
    """FOGD: online gradient descent on the hinge loss over D random Fourier features of the
    RBF kernel, z(x) = √(2/D)·cos(xΩ + b) (Lu et al. 2016, Algorithm 1).

    Ω (d, D) and b (D,) are scikit-learn's ``RBFSampler(gamma, n_components=D,
    random_state=seed)`` drawn for the d features of the first rows (Ω ~ N(0, 2γ), b ~
    U[0, 2π)), so E[z(x)·z(x′)] = exp(−γ‖x − x′‖²); the paper's (cos uᵀx, sin uᵀx)/√D pairs
    are the same estimator with paired phases. Each row: z_t = z(x_t) (compiled, O(nnz·D)),
    f(x_t) = w·z_t (+ bias); if y·f(x_t) < 1, w ← w + η·y·z_t (the hinge's gradient step,
    Algorithm 1's update) and, with ``fit_intercept``, the bias (a constant feature 1) by η·y.
    The map is the same for every class of one-vs-rest.

    eta : float > 0 (default 0.5; tune it, as the paper does). n_components : int ≥ 1, D
    (default 100, RBFSampler's).
    gamma : float > 0 or None (default None: 1/n_features, as the kernel learners).
    fit_intercept : bool (default False). seed : int in [0, 2**53) (default 0).
    n_jobs : int or None: threads for K ≥ 3 classes one-vs-rest, each learning a group of
    classes (joblib's semantics; results bit for bit those of one thread).

    Fitted attributes: ``coef_`` (1, D), the weights over the D features, and
    ``intercept_``; ``random_weights_`` Ω and ``random_offset_`` b (RBFSampler's names: the
    features are √(2/D)·cos(X @ random_weights_ + random_offset_)); no stored rows
    (``n_support_`` 0, ``support_vectors_`` empty): the model's size is D, whatever the
    stream.
    """

    _layout = FOGD_LAYOUT
    _features_axis = 0  # Ω is stored by feature, (d, D)
    _feature_map = True  # coef_ is over the D features, not the d inputs
    _parameter_constraints = {
        "eta": [Interval(Real, 0, None, closed="neither")],
        "n_components": [Interval(Integral, 1, None, closed="left")],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "fit_intercept": ["boolean"],
        "seed": [Interval(Integral, 0, SEED_LIMIT, closed="left")],
        "n_jobs": N_JOBS_CONSTRAINT,
    }

    def __init__(self, eta=0.5, n_components=100, gamma=None, fit_intercept=False, seed=0,
                 n_jobs=None):
        self.eta = eta
        self.n_jobs = n_jobs
        self.n_components = n_components
        self.gamma = gamma
        self.fit_intercept = fit_intercept
        self.seed = seed

    def _hp_values(self):
        return {"eta": self.eta, "fit_intercept": self.fit_intercept,
                "n_components": self.n_components}

    def _sampler(self, n_features):
        from sklearn.kernel_approximation import RBFSampler

        gamma = 1.0 / n_features if self.gamma is None else float(self.gamma)
        return RBFSampler(gamma=gamma, n_components=int(self.n_components),
                          random_state=int(self.seed)).fit(np.zeros((1, n_features)))

    def _initial_state(self, n_features):
        sampler = self._sampler(n_features)
        scal = np.zeros(n_scalars(self.n_components))
        block(scal, OFFSET, self.n_components)[:] = sampler.random_offset_
        return np.ascontiguousarray(sampler.random_weights_, dtype=np.float64), scal

    def _check_loaded_state(self, vecs, ints, scal):
        D = int(self.n_components)
        if np.any(block(scal, Z, D) != 0.0):
            return "scal 'z': the scratch features must be zero between rows"
        sampler = self._sampler(vecs.shape[0])
        if not np.array_equal(vecs, sampler.random_weights_):
            return ("vecs 'random_weights': not the directions RBFSampler draws for this "
                    f"seed ({self.seed}), gamma and n_components")
        if not np.array_equal(block(scal, OFFSET, D), sampler.random_offset_):
            return ("scal 'offset': not the offsets RBFSampler draws for this seed "
                    f"({self.seed})")
        return None

    def _linear_model(self):
        D = int(self.n_components)
        return (block(self._scal, W, D).copy(),
                float(self._scal[FeatureMapScal.BIAS]) if self.fit_intercept else 0.0)

    def _states(self):
        self._check_fitted()
        if self._vecs.ndim == 3:
            return [(self._vecs[c], self._scal[c]) for c in range(self._vecs.shape[0])]
        return [(self._vecs, self._scal)]

    @property
    def random_weights_(self):
        return self._states()[0][0].copy()

    @property
    def random_offset_(self):
        return block(self._states()[0][1], OFFSET, self.n_components).copy()

    # No stored rows: the pool's attributes, for the code that reads them (olc run's
    # "support vectors", scikit-learn users of SVC's names).
    @property
    def n_support_(self):
        return np.zeros(len(self._states()), dtype=np.int32)

    @property
    def support_(self):
        return np.zeros(0, dtype=np.int64)

    @property
    def support_vectors_(self):
        return np.zeros((0, self._vecs.shape[-2]))

    @property
    def dual_coef_(self):
        return np.zeros((1, 0))
