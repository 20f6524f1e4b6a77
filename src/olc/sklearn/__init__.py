"""scikit-learn drop-ins on olc's compiled loop: ``PassiveAggressiveClassifier``,
``PassiveAggressiveRegressor`` and ``Perceptron`` with scikit-learn 1.7's signatures,
defaults, attributes (``coef_``, ``intercept_``, ``classes_``, ``n_iter_``, ``t_``) and
training semantics (``sklearn/linear_model/_stochastic_gradient.py`` and ``_sgd_fast.pyx``):
``max_iter`` epochs stopped by ``tol`` on the epoch's mean loss or by ``early_stopping`` on
a (stratified) validation split, the rows shuffled per epoch exactly as scikit-learn shuffles
them (same ``random_state`` → same orders), one-vs-rest for K ≥ 3 classes (each class its own
seed and stopping epoch), ``class_weight`` × ``sample_weight`` multiplying each update, the
bias damped ×0.01 on sparse input, ``warm_start``, ``coef_init``/``intercept_init``, and
``Perceptron``'s ``penalty``/``alpha``/``l1_ratio`` (olc's SGD rule, ``_penalized``).
Replace ``from sklearn.linear_model import ...`` by ``from olc.sklearn import ...``.

What differs (the user guide's page "The scikit-learn drop-ins"):
- the arithmetic: the dots follow olc's setting (reassociated by default; bit for bit
  scikit-learn's under ``olc.strict_mode()`` on float64 data, tested); float32 input is
  learned in float64 (scikit-learn learns in float32) and ``coef_`` is returned as float32;
- no FutureWarning on construction (scikit-learn ≥ 1.8 deprecates the PA classes);
- ``n_jobs`` runs the K one-vs-rest problems on threads as scikit-learn's does (joblib's
  ``effective_n_jobs``: None is 1 outside a joblib ``parallel_config``, −1 every core); the
  compiled loop releases the GIL and every result is the same with any number of threads
  (two classes: one problem, nothing to split); ``verbose`` prints nothing;
- y with a label missing from ``classes=`` is an error naming it, as is a ``class_weight``
  key that is not a class (scikit-learn names the unweighted classes instead).

Importing ``olc`` does not import this module (it imports scikit-learn)."""
from ._classifiers import PassiveAggressiveClassifier, Perceptron
from ._regressor import PassiveAggressiveRegressor

__all__ = ["PassiveAggressiveClassifier", "PassiveAggressiveRegressor", "Perceptron"]
