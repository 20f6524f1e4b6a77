"""Per-family compiled loops: compiled on first use, cached on disk, announced while compiling.

The loop source (``loops.py``) is written once; ``load(family)`` executes it as a module of its
own (``olc._compiled._loops_<family>``) whose ``family_step`` / ``family_score`` are that
family's rule dispatchers, so each family gets its own compiled loops and running the
perceptron never compiles OBPM. Each module instance is a plain module with module-level
dispatchers, which numba's disk cache reuses across processes (DESIGN.md: function arguments
and run-time closures defeat it).

Disk cache: ``<root>/<family>-<fingerprint>`` where the fingerprint hashes the family's
compiled sources and the shared core (``rule_ids.Family.sources``, ``CORE_SOURCES``); shared
helpers are cached in ``<root>/core-<fingerprint>``. ``<root>`` is ``$NUMBA_CACHE_DIR/olc``
when set, else ``<user cache>/olc/numba``.

The moment numba starts compiling a family's entry point, one line on stderr says so (set
``OLC_COMPILE_NOTICE=0`` to silence it); the seconds spent are kept per family
(:func:`compile_seconds`).
"""
import hashlib
import importlib
import importlib.util
import os
import sys
import threading
import time
from pathlib import Path

from .rule_ids import CORE_SOURCES, FAMILIES, family_of

_HERE = Path(__file__).parent
_CORE_MODULES = ("kernels", "random", "scaled")
ENTRY_POINTS = ("run_dense", "run_csr", "score_dense", "score_csr")
# The one-vs-rest loops (``loops_ovr.py``), compiled only when a multiclass learner of the
# family is first used (``load_ovr``), cached apart from the binary loops.
OVR_ENTRY_POINTS = ("run_dense_ovr", "run_csr_ovr", "score_dense_ovr", "score_csr_ovr")
OVR_SOURCES = ("loops_ovr.py",)
_ENTRY_LAYOUT = {"run_dense": "dense rows", "score_dense": "dense rows",
                 "run_csr": "sparse rows", "score_csr": "sparse rows",
                 "run_dense_ovr": "dense rows, one-vs-rest",
                 "score_dense_ovr": "dense rows, one-vs-rest",
                 "run_csr_ovr": "sparse rows, one-vs-rest",
                 "score_csr_ovr": "sparse rows, one-vs-rest"}

# Cold compile of both layouts, measured with `olc warmup --all` on the 2-core reference
# machine (docs/architecture.md); the notice quotes the layout's half.
# linear and omm re-measured after binary CSR rows (their rules compiled twice for CSR rows):
# 7-9 -> 8-9 s and 19-21 -> 23-25 s, against the old code in the same session (the others
# within noise of their old figures).
# 2026-11-26 (AVX-512 machine, quiet), cold `olc run` of one learner: linear 5.1 s dense,
# 6.5 s binary CSR rows (their own specialization since then, 10.7 s before); omm 6.2 s dense.
ESTIMATED_SECONDS = {  # measured 2026-11-23, after the NRT-free loops and the COLD/SHARED split
    "linear": 12, "omm": 14, "regularized": 54, "experts": 14, "margin": 37,
    "omm_variants": 57, "bayes_point": 22, "sgd": 15, "second_order": 14, "regression": 13,
    "multiclass_pa": 6,
}

_lock = threading.RLock()
_loaded = {}          # family name -> loops module instance
_loaded_ovr = {}      # family name -> one-vs-rest loops module instance
_loading = None       # the Family whose loops module is executing (read by loops.py)
_entry_family = {}    # id(dispatcher) -> (family name, entry name)
_compile_seconds = {}  # family name -> seconds spent compiling in this process
_core_ready = False
_announced = set()    # families whose compile was announced ahead (announce)


def _fingerprint(files):
    digest = hashlib.sha256()
    for rel in sorted(set(files)):
        digest.update(rel.encode())
        digest.update((_HERE / rel).read_bytes())
    return digest.hexdigest()[:16]


def fingerprint(family):
    """Hash of every compiled source file ``family`` depends on (its loops' template too)."""
    spec = FAMILIES[family]
    return _fingerprint(CORE_SOURCES + spec.sources + (spec.loops + ".py",))


def cache_root():
    # numba's CACHE_DIR comes from NUMBA_CACHE_DIR; read the variable itself so that this
    # (and is_cached) works before numba is imported.
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if "numba" in sys.modules:
        configured = sys.modules["numba"].core.config.CACHE_DIR or configured
    if configured:
        return Path(configured) / "olc"
    import platformdirs

    return Path(platformdirs.user_cache_dir("olc")) / "numba"


def cache_dir(family):
    return cache_root() / f"{family}-{fingerprint(family)}"


def ovr_fingerprint(family):
    """Hash of every compiled source file ``family``'s one-vs-rest loops depend on (the
    family's own, plus ``loops_ovr.py``): an edit of ``loops_ovr.py`` leaves the binary
    loops' cache alone."""
    return _fingerprint(CORE_SOURCES + FAMILIES[family].sources + OVR_SOURCES)


def ovr_cache_dir(family):
    return cache_root() / f"{family}-ovr-{ovr_fingerprint(family)}"


def _caching():
    """``caching`` (imports numba): imported on first use, so that a command can announce
    a compile (``announce``, ``is_cached``) before paying for numba's import (~0.5 s)."""
    from . import caching

    return caching


def _ensure_core():
    global _core_ready
    if _core_ready:
        return
    directory = cache_root() / f"core-{_fingerprint(CORE_SOURCES)}"
    for name in _CORE_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        _caching().enable_cache(module.__name__, directory)
    _install_notice()
    _core_ready = True


def loading():
    """The family whose loops module is being executed (``loops.py`` asks at import)."""
    if _loading is None:
        raise ImportError("olc._compiled.loops is a template: get a family's loops with "
                          "olc._compiled.families.load(name) or loops_for(rule)")
    return _loading


def load(family):
    """The compiled loops module of ``family`` (a name), importing and caching it once."""
    module = _loaded.get(family)
    if module is not None:
        return module
    with _lock:
        if family in _loaded:
            return _loaded[family]
        spec = FAMILIES[family]
        _ensure_core()
        directory = cache_dir(family)
        rules = importlib.import_module(f"{__package__}.{spec.module}")
        for rel in spec.sources:
            name = f"{__package__}." + rel[:-3].replace("/", ".")
            importlib.import_module(name)
            _caching().enable_cache(name, directory)
        instance_name = f"{__package__}._loops_{family}"
        module = _execute_template(spec.loops, instance_name, spec, rules)
        _caching().enable_cache(instance_name, directory)
        for entry in ENTRY_POINTS:
            _entry_family[id(getattr(module, entry))] = (family, entry)
        _loaded[family] = module
        return module


def _execute_template(template, instance_name, spec, rules):
    """Execute the loop template ``template`` (a module name in this package) as the module
    ``instance_name`` with the family's rule dispatchers bound (under ``_lock``)."""
    global _loading
    origin = importlib.util.find_spec(f"{__package__}.{template}").origin
    instance_spec = importlib.util.spec_from_file_location(instance_name, origin)
    module = importlib.util.module_from_spec(instance_spec)
    _loading = spec
    try:
        module.family_step, module.family_score = rules.family_step, rules.family_score
        instance_spec.loader.exec_module(module)
    finally:
        _loading = None
    sys.modules[instance_name] = module
    return module


def load_ovr(family):
    """The compiled one-vs-rest loops module of ``family`` (``loops_ovr.py``), loaded on the
    first multiclass use of the family and cached in its own folder (``ovr_cache_dir``)."""
    module = _loaded_ovr.get(family)
    if module is not None:
        return module
    with _lock:
        if family in _loaded_ovr:
            return _loaded_ovr[family]
        load(family)  # the rule modules, their caches and the core (compiles nothing)
        spec = FAMILIES[family]
        rules = importlib.import_module(f"{__package__}.{spec.module}")
        instance_name = f"{__package__}._loops_ovr_{family}"
        module = _execute_template("loops_ovr", instance_name, spec, rules)
        _caching().enable_cache(instance_name, ovr_cache_dir(family))
        for entry in OVR_ENTRY_POINTS:
            _entry_family[id(getattr(module, entry))] = (family, entry)
        _loaded_ovr[family] = module
        return module


def ovr_loops_for(rule):
    """The compiled one-vs-rest loops module of the family that holds ``rule``."""
    return load_ovr(family_of(rule).name)


def loops_for(rule):
    """The compiled loops module of the family that holds ``rule`` (an id)."""
    return load(family_of(rule).name)


def ensure_cached(family):
    """Point the disk cache of ``family``'s compiled functions at their fingerprinted folder
    (for code that calls them outside the loops, e.g. ``olc.max_margin``)."""
    load(family)


def is_cached(family, entry="run_dense"):
    """Whether ``family``'s ``entry`` loop is in the disk cache (an index file exists): a
    cheap look before importing numba, so a command can announce a compile at once."""
    ovr = entry in OVR_ENTRY_POINTS
    directory = ovr_cache_dir(family) if ovr else cache_dir(family)
    template = "loops_ovr" if ovr else FAMILIES[family].loops
    return directory.is_dir() and any(directory.glob(f"**/{template}.{entry}-*.nbi"))


def announce(families, sparse=False):
    """Print the compile notice at once for the families among ``families`` that are not
    cached yet and not announced before in this process (the per-entry notices of the
    listener then stay quiet for them)."""
    entry = "run_csr" if sparse else "run_dense"
    todo = [f for f in dict.fromkeys(families)
            if f not in _loaded and f not in _announced and not is_cached(f, entry)]
    if todo and _notice_enabled():
        seconds = sum(ESTIMATED_SECONDS.get(f, 20) for f in todo) // 2
        print(f"olc: compiling {', '.join(todo)} for this machine ({'sparse' if sparse else 'dense'} "
              f"rows), once: ~{max(1, seconds)} s", file=sys.stderr, flush=True)
    _announced.update(todo)
    return todo


# The family compiled for the learners of each learner module (checked by a contract test
# against every catalogue entry's layout), so a command finds its families without importing
# the learner classes (scikit-learn) or numba.
LEARNER_MODULE_FAMILY = {
    "perceptron": "linear", "passive_aggressive": "linear", "omm": "omm",
    "regularized": "regularized", "norma": "regularized", "experts": "experts",
    "margin": "margin", "omm_variants": "omm_variants", "bayes_point": "bayes_point",
    "sgd": "sgd", "second_order": "second_order", "regression": "regression",
    "multiclass_pa": "multiclass_pa",
}


def family_of_learner_module(module):
    """The family compiled for the learners of ``olc.learners.<module>``."""
    return LEARNER_MODULE_FAMILY[module.rpartition(".")[2]]


def compile_seconds():
    """{family: seconds} spent compiling olc's loops in this process."""
    return dict(_compile_seconds)


# -- the compile notice ----------------------------------------------------------------------

def _notice_enabled():
    return os.environ.get("OLC_COMPILE_NOTICE", "1") not in ("0", "false", "no")


def _install_notice():
    from numba.core import event

    class _Notice(event.Listener):
        def __init__(self):
            self._started = {}

        def on_start(self, ev):
            key = _entry_family.get(id(ev.data["dispatcher"]))
            if key is None:
                return
            self._started[key] = time.perf_counter()
            family, entry = key
            if _notice_enabled() and family not in _announced:
                estimate = max(1, round(ESTIMATED_SECONDS.get(family, 20) / 2))
                print(f"olc: compiling {family} ({FAMILIES[family].description}) for "
                      f"{_ENTRY_LAYOUT[entry]}, {entry.split('_')[0]}, on this machine, "
                      f"once: ~{estimate} s", file=sys.stderr, flush=True)

        def on_end(self, ev):
            key = _entry_family.get(id(ev.data["dispatcher"]))
            if key is None or key not in self._started:
                return
            elapsed = time.perf_counter() - self._started.pop(key)
            _compile_seconds[key[0]] = _compile_seconds.get(key[0], 0.0) + elapsed

    event.register("numba:compile", _Notice())
