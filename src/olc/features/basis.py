"""Feature transforms that turn a linear learner into a linear-in-parameter model.

The textbook chapter on online learning (ch. 31, introduction) writes every method for the
linear-in-input model θᵀx and notes that all of them extend to θᵀφ(x) with a basis φ; its
regression examples (Figs. 31.5 and 31.9, the MATLAB codes) use Gaussian kernels centred on
the training inputs, k_j(x) = exp(−(x − x_j)²/hh) with hh = 2·0.3². :class:`GaussianBasis`
is that φ as a scikit-learn transformer, so any olc learner (or a scikit-learn
``Pipeline``) can learn on it.
"""
from __future__ import annotations

from numbers import Real

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin, _fit_context
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.utils._param_validation import Interval
from sklearn.utils.validation import check_array, check_is_fitted, validate_data


class GaussianBasis(TransformerMixin, BaseEstimator):
    """Gaussian basis functions: φ(x) = (exp(−‖x − c_j‖² / (2σ²)))_{j=1..b}.

    One feature per centre c_j; σ (``width``) is each Gaussian's standard deviation, so the
    textbook's ``hh = 2σ²`` (Fig. 31.5: σ = 0.3). ``centers=None`` takes the inputs given
    to :meth:`fit` as the centres — the kernel model of the chapter's code, whose features
    of a point x are K(x, x_j) over the training inputs x_j; an array (b × d) fixes them.

    The values are computed by :func:`sklearn.metrics.pairwise.rbf_kernel` with
    γ = 1/(2σ²) (squared distances by the expansion ‖x‖² + ‖c‖² − 2x·c, clipped at 0, as
    the chapter's own ``K = exp(-(X.^2 + x.^2' - 2 X x')/hh)``).

    Parameters
    ----------
    width : float > 0, default 1.0
        σ, the standard deviation of every Gaussian.
    centers : array of shape (b, d) or None, default None
        The centres; None: the rows of the data passed to ``fit``.

    Attributes
    ----------
    centers_ : ndarray of shape (b, d)
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> phi = GaussianBasis(width=0.3).fit(np.linspace(-3, 3, 50)[:, None])
    >>> phi.transform([[0.0]]).shape
    (1, 50)
    """

    _parameter_constraints = {
        "width": [Interval(Real, 0, None, closed="neither")],
        "centers": ["array-like", None],
    }

    def __init__(self, width=1.0, centers=None):
        self.width = width
        self.centers = centers

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y=None):
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite=True)
        if self.centers is None:
            centers = X.copy()
        else:
            centers = check_array(self.centers, dtype=np.float64, ensure_all_finite=True,
                                  input_name="centers")
            if centers.shape[1] != X.shape[1]:
                raise ValueError(f"GaussianBasis: centers have {centers.shape[1]} columns but "
                                 f"X has {X.shape[1]} features")
        self.centers_ = centers
        return self

    def transform(self, X):
        check_is_fitted(self, "centers_")
        X = validate_data(self, X, dtype=np.float64, ensure_all_finite=True, reset=False)
        return rbf_kernel(X, self.centers_, gamma=1.0 / (2.0 * float(self.width) ** 2))

    def get_feature_names_out(self, input_features=None):
        check_is_fitted(self, "centers_")
        return np.array([f"gaussian{j}" for j in range(self.centers_.shape[0])], dtype=object)


__all__ = ["GaussianBasis"]
