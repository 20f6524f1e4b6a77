"""Small vector kernels shared by every update rule.

A row ``x`` is passed as ``(idx, val)``: for dense rows ``idx`` is ``None`` and ``val`` is the
full row; for CSR rows ``idx`` holds the column indices and ``val`` the stored values. Numba
prunes the ``idx is None`` branch at compile time, so each layout gets a tight loop.

``dot`` comes in two flavours, for both layouts: ``fast`` allows reassociation (SIMD or
several partial sums, a few ulps of difference), the strict one sums left to right like a
textbook (and like scikit-learn), bit for bit.
"""
import numba as nb
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from .caching import jit


@jit(fastmath={"reassoc"})
def _dense_dot_reassoc(v, val):
    s = 0.0
    for j in range(val.shape[0]):
        s += v[j] * val[j]
    return s


@jit()
def _dense_dot_strict(v, val):
    s = 0.0
    for j in range(val.shape[0]):
        s += v[j] * val[j]
    return s


@jit(fastmath={"reassoc"})
def _sparse_dot_reassoc(v, idx, val):
    # Reassociation lets LLVM keep several partial sums: the gathered reads v[idx[k]] then no
    # longer wait on one serial chain of additions (measured 1.2× on W2's 50-nonzero rows).
    s = 0.0
    for k in range(idx.shape[0]):
        s += v[idx[k]] * val[k]
    return s


# Small kernels are inlined into the rules and the loops (numba IR inlining): a call per row
# costs more than the arithmetic on short rows. The two dense dot bodies and the finiteness
# check stay separate calls because inlining drops their fastmath flags (no SIMD).
INLINE = "always"
# Rarely-run paths (first rounds, exact norm refreshes, renormalizing a scaled vector) are not
# inlined: a call costs nothing there, and inlining them made up much of the compile time
# (e-OMM's first-round functions alone: 25 -> 11 s per layout, throughput unchanged).
COLD = "never"
# Helpers doing O(nnz(x)) work or more that a rule calls from several places: one compiled
# copy instead of one per call site (PUMMA's stored-point updates: its step compiled in 18 s).
SHARED = "never"


@jit(inline=INLINE)
def dot(v, idx, val, fast):
    """v · x (``fast``: reassociated sums, both layouts; otherwise strictly left to right)."""
    if idx is None:
        if fast:
            return _dense_dot_reassoc(v, val)
        return _dense_dot_strict(v, val)
    if fast:
        return _sparse_dot_reassoc(v, idx, val)
    s = 0.0
    for k in range(idx.shape[0]):
        s += v[idx[k]] * val[k]
    return s


@jit(fastmath={"reassoc"})
def is_finite_row(val):
    """True when every stored value of the row is finite. x·0 is 0 for finite x and NaN for
    ±inf or NaN, so one vectorizable sum replaces a branch per entry; the row is already in
    L1 cache when the loop calls this, so it costs a fraction of the dot product."""
    acc = 0.0
    for j in range(val.shape[0]):
        acc += val[j] * 0.0
    return acc == 0.0


@jit(inline=INLINE)
def sqnorm(idx, val):
    """‖x‖² (strict order: it is a step-size denominator)."""
    s = 0.0
    for k in range(val.shape[0]):
        s += val[k] * val[k]
    return s


@jit(inline=INLINE)
def axpy(a, idx, val, v):
    """v ← v + a·x, touching only the nonzeros of x."""
    if idx is None:
        for j in range(val.shape[0]):
            v[j] += a * val[j]
    else:
        for k in range(idx.shape[0]):
            v[idx[k]] += a * val[k]


@jit()
def assign(idx, val, v):
    """v ← x (O(d): clears v first)."""
    v[:] = 0.0
    if idx is None:
        for j in range(val.shape[0]):
            v[j] = val[j]
    else:
        for k in range(idx.shape[0]):
            v[idx[k]] = val[k]


@jit(inline=INLINE)
def sign(score):
    """sign with sign(0) = +1 (the convention of every algorithm in this package)."""
    return 1.0 if score >= 0.0 else -1.0


def _prefetch_intrinsic(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` into cache (LLVM ``llvm.prefetch``, read, high
    locality). The CSR loops issue it for the weights the row after next will read: random
    reads into a large weight vector are what bounds them (DESIGN.md)."""
    sig = types.void(arr, idx)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [args[1]],
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3),
                          ir.Constant(i32, 1)])
        return context.get_dummy_value()

    return sig, codegen


if nb.config.DISABLE_JIT:
    def prefetch(arr, idx):
        """No-op when numba runs the code as Python (NUMBA_DISABLE_JIT=1, coverage runs)."""
else:
    prefetch = intrinsic(_prefetch_intrinsic)


PREFETCH_AHEAD = 2  # rows; measured best on W2 (d = 2^20, 50 nnz/row): 1.13× over none
