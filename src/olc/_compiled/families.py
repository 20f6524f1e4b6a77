"""A family's compiled loops, by name or by rule id: the loader (``loader``) instantiates the
family's loop template on first use; the compile notice (``notice``) says when that compiles.

- ``load(family)``: the family's loops — ``loops/binary.py``, or ``loops/multiclass.py`` for
  a genuinely multiclass family (``rule_ids.Family.multiclass``);
- ``load_ovr(family)``: its one-vs-rest loops (``loops/one_vs_rest.py``), instantiated on
  the family's first multiclass use only, so binary users never compile them;
- ``load_one_row(family)``: its one-example entries (``loops/one_row.py``, River).
"""
import sys

from . import loader, notice
from .notice import compile_seconds  # noqa: F401  (the public name: olc warmup, benchmarks)
from .rule_ids import FAMILIES, family_of

ENTRY_POINTS = loader.LOOP_ENTRIES
OVR_ENTRY_POINTS = loader.ONE_VS_REST.entries


def loops_template(family):
    """The template of ``family``'s own loops (a :class:`loader.Template`)."""
    return loader.MULTICLASS if FAMILIES[family].multiclass else loader.BINARY


def load(family):
    """The compiled loops module of ``family`` (a name), instantiated once per process."""
    return loader.instantiate(loops_template(family), family)


def load_ovr(family):
    """The compiled one-vs-rest loops module of ``family``."""
    return loader.instantiate(loader.ONE_VS_REST, family)


def load_one_row(family):
    """The compiled one-example entries of ``family``."""
    return loader.instantiate(loader.ONE_ROW, family)


def loops_for(rule):
    """The compiled loops module of the family that holds ``rule`` (an id)."""
    return load(family_of(rule).name)


def ovr_loops_for(rule):
    """The compiled one-vs-rest loops module of the family that holds ``rule``."""
    return load_ovr(family_of(rule).name)


def is_loaded(family, template=None):
    """Whether ``family``'s loops (or ``template``'s instance for it) are loaded."""
    return loader.is_loaded(template or loops_template(family), family)


def ensure_cached(family):
    """Point the disk cache of ``family``'s compiled rule functions at their fingerprinted
    folder (for code that calls them outside the loops, e.g. ``olc.max_margin``)."""
    loader.rules_module(family)


def fingerprint(family):
    """Hash of every compiled source file ``family``'s loops depend on."""
    return loader.fingerprint(loops_template(family), family)


def is_cached(family, entry="run_dense"):
    """Whether ``family``'s ``entry`` loop is in the disk cache (an index file exists): a
    cheap look before importing numba, so a command can announce a compile at once."""
    if entry in loader.ONE_VS_REST.entries:
        template = loader.ONE_VS_REST
    elif entry in loader.ONE_ROW.entries:
        template = loader.ONE_ROW
    else:
        template = loops_template(family)
    return loader.is_cached(template, family, entry)


def announce(families, sparse=False):
    """Print the compile notice at once for the families among ``families`` that are not
    cached yet and not announced before in this process (the per-entry notices of the
    listener then stay quiet for them)."""
    entry = "run_csr" if sparse else "run_dense"
    todo = [f for f in dict.fromkeys(families)
            if not is_loaded(f) and f not in notice.announced and not is_cached(f, entry)]
    if todo and notice.enabled():
        share = notice.FIRST_RUN_SHARE
        seconds = round(sum(notice.ESTIMATED_SECONDS.get(f, 20) for f in todo) * share)
        print(f"olc: compiling {', '.join(todo)} for this machine ({'sparse' if sparse else 'dense'} "
              f"rows), once: ~{max(1, seconds)} s", file=sys.stderr, flush=True)
    notice.announced.update(todo)
    return todo
