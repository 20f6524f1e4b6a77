"""The one loader: a loop template instantiated for a family, compiled on first use and
cached on disk in a folder keyed by exactly the source files it depends on.

Why templates. numba's disk cache reuses a compiled function in a new process only if it is a
module-level dispatcher calling module-level dispatchers: a loop that receives the rule as a
function argument, or a closure built at run time, is compiled again by every process
(measured with numba 0.68: 1.0 s against 0.5 s start-up). So each loop is written once, as a
template in ``loops/`` (``Template`` below), and executed as a module of its own per family —
``olc._compiled.loops._<template>_<family>`` — with that family's rule dispatchers bound as
the globals ``family_step`` / ``family_score`` before it runs. Every instance is a plain
module with module-level dispatchers, so the disk cache hits; and each family gets its own
compiled loops, so running the perceptron never compiles OBPM.

Disk cache (``<root>`` is ``$NUMBA_CACHE_DIR/olc`` when set, else ``<user cache>/olc/numba``):
- ``<root>/core-<fp>``: the shared kernels (``CORE_MODULES``), keyed by ``CORE_SOURCES``;
- ``<root>/<family>-rules-<fp>``: the family's rule modules, keyed by the core and the
  files its rule module imports (:func:`family_sources`, collected by ``sources``);
- ``<root>/<family>-<template>-<fp>``: one template's instance, keyed by those and the
  template's own ``sources``.
numba alone checks only a function's own file, so a cached loop that inlines a rule from
another file would survive an edit of that rule; keyed this way, an edit recompiles exactly
what depends on it and never reuses a stale cache (``caching``).
"""
import hashlib
import importlib
import importlib.util
import os
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from . import sources
from .rule_ids import CORE_SOURCES, FAMILIES

_HERE = Path(__file__).parent
#: The modules of ``CORE_SOURCES`` that define compiled functions, cached together.
CORE_MODULES = ("kernels.vector", "kernels.random", "kernels.scaled")


@dataclass(frozen=True)
class Template:
    """A loop template: the module ``loops/<name>.py``, executed once per family."""
    name: str
    entries: tuple      # its compiled entry points (the functions callers use)
    sources: tuple      # files its instances depend on beyond the core and the family's
    description: str    # what the entries run on, for the compile notice


LOOP_ENTRIES = ("run_dense", "run_csr", "score_dense", "score_csr")
#: The binary loops: one ±1 label and one state per row (every family but a multiclass one).
BINARY = Template("binary", LOOP_ENTRIES, ("loops/binary.py",), "")
#: A genuinely multiclass family's loops (``rule_ids.Family.multiclass``): the same entries.
MULTICLASS = Template("multiclass", LOOP_ENTRIES, ("loops/multiclass.py",), "")
#: K binary learners of one rule; instantiated on a family's first multiclass use only.
ONE_VS_REST = Template("one_vs_rest", ("run_dense_ovr", "run_csr_ovr", "score_dense_ovr",
                                       "score_csr_ovr"),
                       ("loops/one_vs_rest.py",), "one-vs-rest")
#: The ``kernel`` family's one-vs-rest with one kernel row per example for the K classes
#: (``driver/kernel_rows.py``).
KERNEL_OVR = Template("kernel_ovr", ("run_dense_shared", "run_csr_shared", "score_dense_shared",
                                     "score_csr_shared"),
                      ("loops/kernel_ovr.py",), "one-vs-rest, shared kernel rows")
#: One example at a time (River's ``learn_one`` / ``predict_one``).
ONE_ROW = Template("one_row", ("learn_one", "learn_row", "score_one"),
                   ("loops/one_row.py", "loops/one_row_state.py"),
                   "one example at a time (River)")

_lock = threading.RLock()
_instances = {}       # (template name, family name) -> module instance
_rules_ready = set()  # families whose rule modules are imported and cached
_core_ready = False
_loading = None       # the Family whose template instance is executing (read by the template)


def fingerprint_of(files):
    """Hash of ``files``: paths relative to this package, or module names (``sources.key``)."""
    digest = hashlib.sha256()
    for key in sorted(set(files)):
        path = _HERE / key if key.endswith(".py") else sources.module_file(key)
        digest.update(key.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def family_sources(family):
    """The modules ``family``'s rule module imports, transitively, beyond the core (its rule
    module included): what its rule code depends on."""
    return tuple(name for name in sources.closure(FAMILIES[family].module_name)
                 if sources.key(name) not in CORE_SOURCES)


def _family_keys(family):
    return CORE_SOURCES + tuple(sources.key(name) for name in family_sources(family))


def rules_fingerprint(family):
    """Hash of the core and ``family``'s sources: what its rule modules' code depends on."""
    return fingerprint_of(_family_keys(family))


def fingerprint(template, family):
    """Hash of every source file ``template``'s instance for ``family`` depends on."""
    return fingerprint_of(_family_keys(family) + template.sources)


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


def cache_dir(template, family):
    return cache_root() / f"{family}-{template.name}-{fingerprint(template, family)}"


def is_cached(template, family, entry):
    """Whether ``entry`` of ``template``'s instance for ``family`` is in the disk cache (an
    index file exists): a cheap look, before importing numba."""
    directory = cache_dir(template, family)
    return directory.is_dir() and any(directory.glob(f"**/{template.name}.{entry}-*.nbi"))


def loading():
    """The family whose template instance is being executed (a template asks at import)."""
    if _loading is None:
        raise ImportError("the modules of olc._compiled.loops are templates: get a family's "
                          "loops with olc._compiled.families.load(name) or loops_for(rule)")
    return _loading


def is_loaded(template, family):
    return (template.name, family) in _instances


def _caching():
    """``caching`` imports numba: imported on first use, so that a command can announce a
    compile (``families.announce``) before paying for numba's import (~0.5 s)."""
    from . import caching

    return caching


def _ensure_core():
    global _core_ready
    if _core_ready:
        return
    directory = cache_root() / f"core-{fingerprint_of(CORE_SOURCES)}"
    for name in CORE_MODULES:
        module = importlib.import_module(f"{__package__}.{name}")
        _caching().enable_cache(module.__name__, directory)
    _core_ready = True


def rules_module(family):
    """The rule module of ``family`` (defines ``family_step`` / ``family_score``), its
    sources imported and their disk cache switched on (compiles nothing)."""
    spec = FAMILIES[family]
    with _lock:
        _ensure_core()
        if family not in _rules_ready:
            directory = cache_root() / f"{family}-rules-{rules_fingerprint(family)}"
            for name in family_sources(family):
                importlib.import_module(name)
                _caching().enable_cache(name, directory)
            _rules_ready.add(family)
        return importlib.import_module(spec.module_name)


def instantiate(template, family):
    """``template``'s module instance for ``family`` (a name), executed once per process."""
    global _loading
    key = (template.name, family)
    module = _instances.get(key)
    if module is not None:
        return module
    with _lock:
        if key in _instances:
            return _instances[key]
        rules = rules_module(family)
        name = f"{__package__}.loops._{template.name}_{family}"
        origin = importlib.util.find_spec(f"{__package__}.loops.{template.name}").origin
        instance_spec = importlib.util.spec_from_file_location(name, origin)
        module = importlib.util.module_from_spec(instance_spec)
        _loading = FAMILIES[family]
        try:
            module.family_step, module.family_score = rules.family_step, rules.family_score
            instance_spec.loader.exec_module(module)
        finally:
            _loading = None
        sys.modules[name] = module
        _caching().enable_cache(name, cache_dir(template, family))
        from . import notice  # the compile notice watches the new instance's entries

        notice.instance_loaded(template, family, module)
        _instances[key] = module
        return module
