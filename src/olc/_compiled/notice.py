"""The compile notice and the compile seconds per family.

The moment numba starts compiling a family's loop, one line on stderr says so with an
estimate (``OLC_COMPILE_NOTICE=0`` silences it); a command that knows its families calls
``families.announce`` first, which checks the disk cache without importing numba and prints
the notice at once. One-example entries are announced when loaded, if not cached. The
seconds spent compiling are kept per family (``compile_seconds``).
"""
import os
import sys
import time

from . import loader
from .rule_ids import FAMILIES

# Cold compile of all of a family's entries (what `olc warmup` compiles), in CPU seconds
# (benchmarks/compile_profile.py on the 2-core AVX-512 machine, at low load). They order the
# warm-up's work (longest first) and feed the notices below.
ESTIMATED_SECONDS = {
    "linear": 23, "omm": 22, "regularized": 51, "experts": 13, "margin": 30,
    "omm_variants": 56, "bayes_point": 27, "sgd": 25, "second_order": 22, "regression": 14,
    "multiclass_pa": 8, "kernel": 40, "kernel_extra": 91, "nystrom": 47, "feature_map": 10,
}
# The share of that an entry takes (same measurement): the first run loop compiled in a
# process also compiles the family's rule code for its rows (dense 0.23-0.59, CSR 0.17-0.46
# of the family); the later entries link what is compiled (one-vs-rest 0.04-0.08 each,
# scores 0.00-0.08, a score loop first: its rule's score code only). A first command
# compiles one run loop: "about 0.4 of the family".
FIRST_RUN_SHARE = 0.4
LATER_ENTRY_SHARE = {"run_dense": 0.3, "run_csr": 0.3, "run_dense_ovr": 0.06,
                     "run_csr_ovr": 0.06, "score_dense": 0.02, "score_csr": 0.04,
                     "score_dense_ovr": 0.02, "score_csr_ovr": 0.02}
_ENTRY_ROWS = {"dense": "dense rows", "csr": "sparse rows"}

_entry_family = {}      # id(dispatcher) -> (family name, entry name, template)
_compile_seconds = {}   # family name -> seconds spent compiling in this process
announced = set()       # families whose compile was announced ahead (families.announce)
_listening = False


def enabled():
    return os.environ.get("OLC_COMPILE_NOTICE", "1") not in ("0", "false", "no")


def compile_seconds():
    """{family: seconds} spent compiling olc's loops in this process."""
    return dict(_compile_seconds)


def _rows(template, entry):
    rows = _ENTRY_ROWS[entry.split("_")[1]]
    return f"{rows}, {template.description}" if template.description else rows


def instance_loaded(template, family, module):
    """Called by the loader for every new instance: watch its loops' compiles; announce a
    one-example entry's compile at once (no per-entry estimate for it)."""
    _listen()
    if template is loader.ONE_ROW:
        if enabled() and not loader.is_cached(template, family, "learn_one"):
            seconds = max(1, ESTIMATED_SECONDS.get(family, 20) // 2)
            print(f"olc: compiling {family} ({FAMILIES[family].description}) for "
                  f"{template.description}, on this machine, once: ~{seconds} s",
                  file=sys.stderr, flush=True)
        return
    for entry in template.entries:
        _entry_family[id(getattr(module, entry))] = (family, entry, template)



def _listen():
    global _listening
    if _listening:
        return
    from numba.core import event

    class _Notice(event.Listener):
        def __init__(self):
            self._started = {}
            self._ran = set()  # families with a run loop compiled in this process

        def on_start(self, ev):
            key = _entry_family.get(id(ev.data["dispatcher"]))
            if key is None:
                return
            family, entry, template = key
            self._started[family, entry] = time.perf_counter()
            if entry.startswith("run") and family not in self._ran:
                share = FIRST_RUN_SHARE
                self._ran.add(family)
            else:
                share = LATER_ENTRY_SHARE.get(entry, 0.1)
            estimate = round(ESTIMATED_SECONDS.get(family, 20) * share)
            # A compile of a second or less (a score loop linking compiled code) needs no
            # notice: a first command's notice already said what the wait is.
            if enabled() and family not in announced and estimate >= 1:
                print(f"olc: compiling {family} ({FAMILIES[family].description}) for "
                      f"{_rows(template, entry)}, {entry.split('_')[0]}, on this machine, "
                      f"once: ~{estimate} s", file=sys.stderr, flush=True)

        def on_end(self, ev):
            key = _entry_family.get(id(ev.data["dispatcher"]))
            if key is None or key[:2] not in self._started:
                return
            elapsed = time.perf_counter() - self._started.pop(key[:2])
            _compile_seconds[key[0]] = _compile_seconds.get(key[0], 0.0) + elapsed

    event.register("numba:compile", _Notice())
    _listening = True
