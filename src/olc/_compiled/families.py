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

# Cold compile of all of a family's entries (what `olc warmup` compiles), in seconds:
# benchmarks/compile_profile.py on the 2-core AVX-512 machine, 2026-11-26, CPU seconds
# measured at load 6-8 and scaled by 0.74 (regularized: 68.6 there, 50.8 on the quiet machine).
# They order the warm-up's work (longest first) and feed the notices below.
ESTIMATED_SECONDS = {
    "linear": 23, "omm": 22, "regularized": 51, "experts": 13, "margin": 30,
    "omm_variants": 56, "bayes_point": 27, "sgd": 25, "second_order": 22, "regression": 14,
    "multiclass_pa": 8,
}
# (Re-scaled 2026-11-27: second_order and regression when AROW regression moved to
# second_order, 18.6 → 23.0 and 23.0 → 16.2 CPU-s; sgd when it took binary rows, 21.0 →
# 27.5; each measured side by side, at load ~1–3.)
# The share of that an entry takes (same measurement): the first run loop compiled in a
# process also compiles the family's rule code for its rows (dense 0.23-0.59, CSR 0.17-0.46
# of the family); the later entries link what is compiled (one-vs-rest 0.04-0.08 each,
# scores 0.00-0.08, a score loop first: its rule's score code only). A first command
# compiles one run loop: "about 0.4 of the family".
FIRST_RUN_SHARE = 0.4
LATER_ENTRY_SHARE = {"run_dense": 0.3, "run_csr": 0.3, "run_dense_ovr": 0.06,
                     "run_csr_ovr": 0.06, "score_dense": 0.02, "score_csr": 0.04,
                     "score_dense_ovr": 0.02, "score_csr_ovr": 0.02}

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
        seconds = round(sum(ESTIMATED_SECONDS.get(f, 20) for f in todo) * FIRST_RUN_SHARE)
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
            self._ran = set()  # families with a run loop compiled in this process

        def on_start(self, ev):
            key = _entry_family.get(id(ev.data["dispatcher"]))
            if key is None:
                return
            self._started[key] = time.perf_counter()
            family, entry = key
            if entry.startswith("run") and family not in self._ran:
                share = FIRST_RUN_SHARE
                self._ran.add(family)
            else:
                share = LATER_ENTRY_SHARE.get(entry, 0.1)
            estimate = round(ESTIMATED_SECONDS.get(family, 20) * share)
            # A compile of a second or less (a score loop linking compiled code) needs no
            # notice: a first command's notice already said what the wait is.
            if _notice_enabled() and family not in _announced and estimate >= 1:
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
