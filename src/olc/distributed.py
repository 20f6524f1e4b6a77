"""One model trained on data spread over a Dask cluster: iterative parameter mixing.

McDonald, Hall & Mann 2010, "Distributed training strategies for the structured perceptron"
(NAACL), §3, Figure 3: the data are split into shards T_1..T_S; in epoch n every shard runs one
online pass from the current mixed weights, ``w_{i,n} = OneEpoch(T_i, w_{n-1})`` (in
parallel), and the weights are mixed, ``w_n = Σ_i μ_{i,n} w_{i,n}``, with μ uniform (1/S) or
proportional to the shard's updates in that epoch, μ_{i,n} = k_{i,n} / Σ_j k_{j,n} (their
§4.1, "error-weighted" mixing). Here a shard is a block of rows of a ``dask.array`` (or a
partition of a ``dask.dataframe``), the pass is the learner's own compiled ``partial_fit``
on the worker that holds the block, and only weight vectors travel.

[Decision] Mixing averages *models*, so it is offered for the learners whose whole state is
one weight vector and a bias (the Perceptron, the Passive-Aggressive classifiers and
regressors): averaging their states is averaging their models, and a pass from the mixed
state is exactly the paper's pass. Learners with more state (scaled vectors with cached
norms and step counters, covariances, support sets, ensembles) are refused with the reason:
averaging that state is not averaging models, and choosing a counter for the mixed model
would be our invention. When every shard made no update, the weights are unchanged and
either mixing gives them; with update weighting such an epoch mixes uniformly. Empty
blocks take no part in an epoch.

dask-ml's ``Incremental`` wrapper is the other route: it calls ``partial_fit`` on the blocks
one after the other (one sequential pass, no mixing), and works with every olc learner.
"""
from dataclasses import dataclass, field

import numpy as np

from .learners._framework.estimator import clone
from .learners.registry import algorithms, name_of
from .learners._framework.validation import InputError, binary_classes

WEIGHTINGS = ("uniform", "updates")


@dataclass
class MixingHistory:
    """Per epoch: the rows and updates of every block, and the mixing weights μ used."""

    rows: list = field(default_factory=list)
    updates: list = field(default_factory=list)
    weights: list = field(default_factory=list)


def is_mixable(learner):
    """Whether the learner's state is exactly one weight vector and a bias."""
    layout = learner._layout
    description = layout.describe()
    return (not getattr(learner, "_prototypes", False)  # K of them (multiclass PA)
            and list(description.get("vectors") or []) == ["w"]
            and list(description.get("scalars") or []) == ["bias"]
            and layout.n_ints(1) == 0)


def mixable_learners():
    return [e.name for e in algorithms() if is_mixable(e.cls())]


def iterative_parameter_mixing(learner, X, y, *, epochs=1, weighting="uniform", classes=None,
                               persist=True):
    """Fit ``learner`` (reset first, as ``fit``) on Dask data by iterative parameter mixing.

    X: a ``dask.array`` (rows in blocks; dense or scipy.sparse blocks) or a
    ``dask.dataframe``; y: a ``dask.array`` or ``dask`` Series with the same rows. The blocks
    of X are the shards. ``epochs``: passes (E in McDonald et al.'s Figure 3); ``weighting``:
    "uniform" or "updates"; ``classes``: the two labels (computed from y when omitted);
    ``persist``: keep the blocks in the workers' memory across epochs (otherwise every epoch
    recomputes them from their source). Runs on the current Dask scheduler (a
    ``distributed.Client`` when one is active). Returns the learner, fitted, with
    ``mixing_history_`` (rows, updates and μ of every block per epoch)."""
    import dask

    _check_options(learner, epochs, weighting)
    X, y, names = _as_dask_arrays(X, y)
    if persist:
        X, y = dask.persist(X, y)
    regression = learner._estimator_type == "regressor"
    if not regression:
        import dask.array as da

        given = classes is not None
        classes = binary_classes(classes if given else da.unique(y).compute(),
                                 "classes" if given else "y")
    template = clone(learner)
    learner._hyperparameters()  # reject bad hyper-parameters before any work is sent
    blocks = list(zip(X.to_delayed().ravel(), y.to_delayed().ravel()))
    n_features = X.shape[1]
    state, history = None, MixingHistory()
    for _ in range(epochs):
        shared = dask.delayed(state, pure=True) if state is not None else None
        passes = dask.compute(*[dask.delayed(_one_pass, pure=True)(
            template, shared, n_features, xb, yb, classes) for xb, yb in blocks])
        state = _mix(state, passes, weighting, history)
    _seat(learner, state, n_features, classes, names)
    learner.n_steps_ = int(sum(map(sum, history.rows)))
    learner.n_updates_ = int(sum(map(sum, history.updates)))
    learner.mixing_history_ = history
    return learner


def _check_options(learner, epochs, weighting):
    if getattr(learner, "_prototypes", False):
        raise InputError(
            f"{name_of(learner)}: iterative parameter mixing is implemented for binary "
            "learners (one weight vector and a bias); this multiclass learner keeps K "
            "prototypes and its labels are class indices. dask-ml's Incremental trains it "
            "on Dask data in one sequential pass.")
    if not hasattr(learner, "_layout") or not is_mixable(learner):
        name = name_of(learner) if hasattr(learner, "_layout") else type(learner).__name__
        raise InputError(
            f"{name}: iterative parameter mixing averages models, and {name}'s state is not "
            "one weight vector and a bias (averaging it would not average models); learners "
            f"that can be mixed: {', '.join(mixable_learners())}. dask-ml's Incremental "
            "trains any olc learner on Dask data in one sequential pass.")
    if isinstance(epochs, bool) or not isinstance(epochs, (int, np.integer)) or epochs < 1:
        raise InputError(f"epochs must be an integer ≥ 1, got {epochs!r}")
    if weighting not in WEIGHTINGS:
        raise InputError(f"weighting must be one of {', '.join(WEIGHTINGS)}, got "
                         f"{weighting!r}")


def _as_dask_arrays(X, y):
    """(X, y) as dask arrays with the same row blocks and X in one column block, and X's
    column names (a dask DataFrame's) or None."""
    import dask.array as da
    try:
        import dask.dataframe as dd
        frames, series = (dd.DataFrame,), (dd.Series, dd.DataFrame)
    except ImportError:  # dask without its dataframe extra: arrays only
        frames = series = ()

    names = None
    if isinstance(X, frames):
        names = np.asarray([str(c) for c in X.columns], dtype=object)
        X = X.to_dask_array(lengths=True)
    if isinstance(y, series):
        y = y.to_dask_array(lengths=True)
    for what, value in (("X", X), ("y", y)):
        if not isinstance(value, da.Array):
            raise InputError(f"{what} must be a dask array or dask DataFrame/Series (got "
                             f"{type(value).__name__}); for data in memory use fit, or wrap "
                             "it: dask.array.from_array(X, chunks=(rows_per_block, -1))")
    if X.ndim != 2:
        raise InputError(f"X must be two-dimensional, got {X.ndim} dimensions")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise InputError(f"y must be one-dimensional, got shape {y.shape}")
    if any(np.isnan(c) for c in X.chunks[0]) or any(np.isnan(c) for c in y.chunks[0]):
        X, y = X.compute_chunk_sizes(), y.compute_chunk_sizes()
    if X.shape[0] != y.shape[0]:
        raise InputError(f"X has {X.shape[0]} rows but y has {y.shape[0]}")
    X = X.rechunk({1: -1})
    if y.chunks[0] != X.chunks[0]:
        y = y.rechunk({0: X.chunks[0]})
    return X, y, names


def _one_pass(template, state, n_features, X_block, y_block, classes):
    """One online pass over a block from the mixed state: (vecs, scal, rows, updates)."""
    n_rows = X_block.shape[0]
    learner = clone(template)
    if state is not None:
        _seat(learner, state, n_features, classes, None)
    if n_rows == 0:
        return None, None, 0, 0
    before = learner.n_updates_ if state is not None else 0
    if classes is None:
        learner.partial_fit(X_block, y_block)
    else:
        learner.partial_fit(X_block, y_block, classes=classes)
    return learner._vecs, learner._scal, n_rows, learner.n_updates_ - before


def _mix(previous, passes, weighting, history):
    used = [p for p in passes if p[2] > 0]
    rows = [p[2] for p in passes]
    updates = [p[3] for p in passes]
    k = np.array([p[3] for p in used], dtype=float)
    if weighting == "updates" and k.sum() > 0:
        mu = k / k.sum()
    else:
        mu = np.full(len(used), 1.0 / len(used))
    vecs = sum(m * p[0] for m, p in zip(mu, used))
    scal = sum(m * p[1] for m, p in zip(mu, used))
    weights, it = [], iter(mu)
    for r in rows:
        weights.append(float(next(it)) if r > 0 else 0.0)
    history.rows.append(rows)
    history.updates.append(updates)
    history.weights.append(weights)
    return vecs, scal


def _seat(learner, state, n_features, classes, names):
    """Give a fresh learner the state (vecs, scal) as its model."""
    vecs, scal = state
    learner._vecs = np.array(vecs, dtype=np.float64)
    learner._scal = np.array(scal, dtype=np.float64)
    learner._ints = learner._initial_ints(n_features)
    learner.n_features_in_ = n_features
    if names is not None:
        learner.feature_names_in_ = names
    elif hasattr(learner, "feature_names_in_"):
        del learner.feature_names_in_
    if classes is not None:
        learner.classes_ = np.asarray(classes)
    learner.n_steps_ = 0
    learner.n_updates_ = 0
