"""The plain C reference loops (``c_reference.c``): built with the system C compiler and loaded
through ctypes, when a compiler is present; otherwise every C entry reports why it was skipped.

Two builds, both ``-march=native``: ``-O2 -ffp-contract=off`` (what a C programmer ships,
kept to the bare loops' IEEE arithmetic: GCC would otherwise fuse w + a·x into an FMA) and
``-O3 -ffast-math`` (reassociated sums and FMAs: GCC may keep several partial sums or
vectorize).
The shared libraries go to a cache folder outside the repository (``$OLC_BENCH_C_CACHE`` or
``<tmp>/olc-bench-c-<uid>``), named by a hash of the source, the flags and the compiler's
version, so a rebuild happens only when one of them changes.
"""
import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np

SOURCE = Path(__file__).resolve().parent / "c_reference.c"
BUILDS = {
    "c_O2": ("-O2", "-march=native", "-ffp-contract=off"),
    "c_O3_fastmath": ("-O3", "-ffast-math", "-march=native"),
}

_c_double_p = ctypes.POINTER(ctypes.c_double)
_c_int32_p = ctypes.POINTER(ctypes.c_int32)
_c_int64_p = ctypes.POINTER(ctypes.c_int64)


def compiler():
    """The C compiler to use ($CC, else cc, else gcc), or None."""
    for candidate in (os.environ.get("CC"), "cc", "gcc"):
        if candidate and shutil.which(candidate):
            return candidate
    return None


def _compiler_version(cc):
    out = subprocess.run([cc, "--version"], capture_output=True, text=True, timeout=30)
    return out.stdout.splitlines()[0] if out.returncode == 0 and out.stdout else cc


def cache_folder():
    configured = os.environ.get("OLC_BENCH_C_CACHE")
    if configured:
        return Path(configured)
    return Path(tempfile.gettempdir()) / f"olc-bench-c-{os.getuid()}"


class CLoops:
    """One build: ``perceptron(X, y)`` and ``pa1(X, y, C)`` over a CSR matrix with int32
    indices, from a zero model; each returns (updates, w, b)."""

    def __init__(self, name, flags, path):
        self.name, self.flags, self.path = name, flags, str(path)
        lib = ctypes.CDLL(self.path)
        self._perceptron = lib.perceptron_csr
        self._perceptron.restype = ctypes.c_int64
        self._perceptron.argtypes = [_c_double_p, _c_int32_p, _c_int64_p, _c_double_p,
                                     ctypes.c_int64, _c_double_p, _c_double_p]
        self._pa1 = lib.pa1_csr
        self._pa1.restype = ctypes.c_int64
        self._pa1.argtypes = [_c_double_p, _c_int32_p, _c_int64_p, _c_double_p,
                              ctypes.c_int64, _c_double_p, ctypes.c_double, _c_double_p]

    @staticmethod
    def prepare(X, y):
        """(data, indices int32, indptr int64, y float64) as contiguous arrays; call it outside
        the timing (scipy gives int32 indptr for W2, the loop reads int64)."""
        if X.indices.dtype != np.int32:
            raise ValueError(f"the C reference loops take int32 indices, got {X.indices.dtype}")
        return (np.ascontiguousarray(X.data, dtype=np.float64),
                np.ascontiguousarray(X.indices), np.ascontiguousarray(X.indptr, dtype=np.int64),
                np.ascontiguousarray(y, dtype=np.float64), X.shape[1])

    @staticmethod
    def _ptr(a, kind):
        return a.ctypes.data_as(kind)

    def perceptron(self, prepared):
        data, indices, indptr, y, d = prepared
        w, b = np.zeros(d), ctypes.c_double(0.0)
        u = self._perceptron(self._ptr(data, _c_double_p), self._ptr(indices, _c_int32_p),
                             self._ptr(indptr, _c_int64_p), self._ptr(y, _c_double_p),
                             y.shape[0], self._ptr(w, _c_double_p), ctypes.byref(b))
        return int(u), w, b.value

    def pa1(self, prepared, c):
        data, indices, indptr, y, d = prepared
        w, b = np.zeros(d), ctypes.c_double(0.0)
        u = self._pa1(self._ptr(data, _c_double_p), self._ptr(indices, _c_int32_p),
                      self._ptr(indptr, _c_int64_p), self._ptr(y, _c_double_p), y.shape[0],
                      self._ptr(w, _c_double_p), float(c), ctypes.byref(b))
        return int(u), w, b.value


def build(name):
    """The build ``name`` of BUILDS as a :class:`CLoops`, compiled once into the cache folder.
    Raises RuntimeError (with the reason) when no compiler is present or the build fails."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler found ($CC, cc, gcc): the C reference loops are "
                           "skipped")
    flags = BUILDS[name]
    source = SOURCE.read_bytes()
    key = hashlib.sha256(source + repr((flags, _compiler_version(cc))).encode()).hexdigest()
    folder = cache_folder()
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}-{key[:16]}.so"
    if not target.exists():
        # Built under a temporary name and renamed: a concurrent or interrupted build never
        # leaves a half-written library under the final name.
        fd, tmp = tempfile.mkstemp(suffix=".so", dir=folder)
        os.close(fd)
        try:
            cmd = [cc, *flags, "-shared", "-fPIC", "-o", tmp, str(SOURCE)]
            out = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            if out.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)} failed: {out.stderr.strip()[:500]}")
            os.replace(tmp, target)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return CLoops(name, flags, target)


def build_all():
    """{build name: CLoops or the reason (str) it is unavailable}."""
    out = {}
    for name in BUILDS:
        try:
            out[name] = build(name)
        except (RuntimeError, OSError, subprocess.SubprocessError) as exc:
            out[name] = str(exc)
    return out
