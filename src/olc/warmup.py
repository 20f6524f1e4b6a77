"""Compile ahead of time (``olc warmup``): run learners briefly so that the compiled families
they use are compiled for dense and CSR rows and stored in numba's disk cache — for images and
CI, so that a later first run starts at once.

Each learner is fitted, then asked for decision values, on a tiny synthetic stream in its
input domain, once as a dense array and twice as CSR (with values, and all ones: the binary
rows' specialization): that calls every entry point of its family's loops (``run_dense``,
``score_dense``, ``run_csr``, ``score_csr``). With
``multiclass`` (``olc warmup --all``), classifiers are also fitted on three classes, which
compiles the family's one-vs-rest loops (``families.OVR_ENTRY_POINTS``). When River is
installed, the family's one-example entry points (``olc.river``: ``_compiled/loops/one_row.py``)
are compiled too, for the learner's state types. With ``averaged`` (``olc warmup --averaged``,
implied by ``--all``), the learners that take ``average=`` are also run averaged on rows as
wide as ``feature_major.MIN_FEATURES``: a wide averaged state is stored feature-major and
reaches the compiled code as a type of its own (``_compiled/layouts/feature_major.py``), whose
specializations of the same entry points are compiled then (and only then: a plain user
never compiles them).
"""
import time
import warnings
from dataclasses import dataclass, field

from .learners.registry import info, make


@dataclass
class FamilyWarmup:
    family: str
    learners: list = field(default_factory=list)
    compile_seconds: float = 0.0  # spent by numba compiling (0: the disk cache had it)
    seconds: float = 0.0          # wall time of the warm-up runs, compiling included


def _tiny_stream(learner, kind, seed=0, n=12, d=4):
    import numpy as np

    rng = np.random.default_rng(seed)
    domain = getattr(learner, "input_domain", None)
    if domain == "binary":
        X = (rng.random((n, d)) < 0.5).astype(np.float64)
    elif domain == "sign":
        X = np.where(rng.random((n, d)) < 0.5, -1.0, 1.0)
    else:
        X = rng.standard_normal((n, d))
    if kind == "regressor":
        return X, X @ rng.standard_normal(d) + 0.5
    y = np.where(X[:, 0] >= X[:, 1:].mean(axis=1), 1, -1)
    y[0], y[1] = 1, -1  # both labels whatever the draw gave
    return X, y


def _exercise(name, multiclass=False, averaged=False):
    _run_all_layouts(name, {}, multiclass, 0)
    if averaged and "average" in make(name).get_params():
        from ._compiled.layouts.feature_major import MIN_FEATURES

        _run_all_layouts(name, {"average": True}, multiclass, MIN_FEATURES)


def _run_all_layouts(name, params, multiclass, width):
    """Fit and predict ``make(name, **params)`` on the tiny stream as dense rows, CSR rows
    and binary CSR rows (and on three classes with ``multiclass``), padded with zero columns
    to ``width`` features; then bind the one-example entries for its state."""
    import numpy as np
    import scipy.sparse as sp

    learner = make(name, **params)
    X, y = _tiny_stream(learner, info(name).kind)
    if width > X.shape[1]:
        X = np.hstack([X, np.zeros((X.shape[0], width - X.shape[1]))])
    targets = [y]
    if multiclass and info(name).kind == "classifier" and learner._ovr_refusal is None:
        three = np.where(y > 0, 1, 0) + (X[:, -1] > 0)  # labels 0, 1, 2
        three[:3] = [0, 1, 2]
        targets.append(three)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # e.g. OMM's non-separable warning: not the point here
        # CSR rows twice: with values, and all ones (the binary specialization of the
        # families with binary rows, ``_compiled/loops/binary.py``)
        ones = sp.csr_matrix((X != 0).astype(np.float64))
        for labels in targets:
            for rows in (X, sp.csr_matrix(X), ones):
                make(name, **params).fit(rows, labels).predict(rows)
    if _river_installed() and not getattr(learner, "_prototypes", False):  # River refuses those
        _compile_one_row(make(name, **params), max(width, 4))


def _river_installed():
    import importlib.util

    return importlib.util.find_spec("river") is not None


def _compile_one_row(learner, width=4):
    """Compile (or load) the one-example entry points for ``learner``'s state types, the
    ones an ``olc.river`` model binds (``driver.one_row.bind``)."""
    import numpy as np

    from ._compiled.driver.one_row import bind

    vecs, scal = learner._initial_state(width)
    # River keeps every state row by row (a wide averaged one too: ``olc.river.state``)
    bind(learner._rule, np.ascontiguousarray(vecs), np.array(learner._initial_ints(width)), scal,
         learner._hyperparameters())


def family_of_learner(name):
    """The compiled family that runs learner ``name``."""
    from ._compiled.rule_ids import family_of

    return family_of(make(name)._rule).name


def _warm_family(family, members, multiclass=False, averaged=False):
    from ._compiled.families import compile_seconds

    before = compile_seconds().get(family, 0.0)
    start = time.perf_counter()
    for name in members:
        _exercise(name, multiclass, averaged)
    return FamilyWarmup(family, members, compile_seconds().get(family, 0.0) - before,
                        time.perf_counter() - start)


def warmup(names, n_jobs=1, multiclass=False, averaged=False):
    """Compile the families of the learners ``names`` (dense and CSR; with ``multiclass``,
    the one-vs-rest loops of classifiers too; with ``averaged``, the wide averaged states'
    specializations of the learners that take ``average=``); returns one
    :class:`FamilyWarmup` per family, in the order of first use. Unknown names raise
    ``UnknownAlgorithmError`` before anything is compiled.

    ``n_jobs`` > 1 compiles families in that many processes at once (:func:`in_processes`),
    the longest first (``ESTIMATED_SECONDS``), so the wall time tends to the largest of a
    balanced split instead of the sum; each process writes its families to the shared disk
    cache."""
    from ._compiled.notice import ESTIMATED_SECONDS

    for name in names:
        info(name)
    by_family = {}
    for name in dict.fromkeys(names):
        by_family.setdefault(family_of_learner(name), []).append(name)
    if n_jobs == 1 or len(by_family) == 1:
        return [_warm_family(family, members, multiclass, averaged)
                for family, members in by_family.items()]
    longest_first = sorted(by_family, key=lambda f: -ESTIMATED_SECONDS.get(f, 20))
    done = in_processes(_warm_family, [(f, by_family[f], multiclass, averaged)
                                       for f in longest_first], n_jobs)
    by_name = {row.family: row for row in done}
    return [by_name[family] for family in by_family]


def in_processes(function, calls, n_jobs):
    """``[function(*args) for args in calls]``, computed in ``n_jobs`` new processes that
    live for the whole warm-up, each taking the next call when it is free.

    Not joblib's loky pool: where psutil is installed, loky replaces a worker whose memory
    has grown by 300 MB since its first task, warning "A worker stopped while some jobs were
    given to the executor. This can be caused by a too short worker timeout or by a memory
    leak." Compiling a family grows a process by about that much by design (numba keeps the
    compiled code and LLVM's state), so the warm-up paid for a new interpreter per family and
    printed a warning a user could not act on."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=n_jobs,
                             mp_context=multiprocessing.get_context("spawn")) as pool:
        futures = [pool.submit(function, *args) for args in calls]
        return [future.result() for future in futures]


def warm_readers():
    """Compile the data-file readers' kernels (:mod:`olc.data.svmlight`, :mod:`olc.data.vw`,
    the parse cache's check) by reading tiny files of every kind once; a
    :class:`FamilyWarmup` named ``readers`` (compile_seconds 0 when the disk cache had them)."""
    import tempfile
    from pathlib import Path

    from ._compiled.caching import dispatchers
    from .data import parsed_cache
    from .data.files import read_file
    from .data.svmlight import iter_svmlight_chunks, read_svmlight

    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="olc-warmup-") as folder:
        svm, vw = Path(folder) / "w.svm", Path(folder) / "w.vw"
        # a comment, a qid and a value for the hard-token path: every kernel is called
        svm.write_bytes(b"# warm-up\n1 qid:1 1:0.5 2:0.12345678901234567\n-1 3:1\n")
        vw.write_bytes(b"1 |a x y:0.12345678901234567 |b 3\n-1 |a z\n")
        read_svmlight(svm)
        read_svmlight(svm, zero_based="auto")
        list(iter_svmlight_chunks(svm, 1))
        read_file(vw, cache=False)
        X, y = read_svmlight(svm)
        parsed_cache.write_file(svm, {"warm-up": True}, X, y, {"warm-up": True})
        entry = parsed_cache.file_entry_path(svm, {"warm-up": True})
        header, arrays = parsed_cache._map_entry(entry)
        parsed_cache._checked_file_arrays(header, arrays)
        entry.unlink(missing_ok=True)
    misses = sum(sum(d.stats.cache_misses.values()) for module in
                 ("olc.data._text_kernels", "olc.data._vw_kernels")
                 for d in dispatchers(module))
    seconds = time.perf_counter() - start
    return FamilyWarmup("readers", ["svmlight", "vw"], seconds if misses else 0.0, seconds)
