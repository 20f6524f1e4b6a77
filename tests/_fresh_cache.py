"""A new interpreter on an empty numba disk cache: the suite's own cache is filled by CI's
warm-up, so only a fresh one shows what a command compiles and caches."""
import os
import subprocess
import sys


def in_fresh_cache(cache, code):
    """Run ``code`` in a new interpreter whose numba disk cache is the folder ``cache``
    (compile notices off); returns its last line of standard output."""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=900, env={**os.environ, "NUMBA_CACHE_DIR": str(cache),
                                            "OLC_COMPILE_NOTICE": "0"})
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]
