"""Small vector kernels shared by every update rule.

A row ``x`` is passed as ``(idx, val)``: for dense rows ``idx`` is ``None`` and ``val`` is the
full row; for CSR rows ``idx`` holds the column indices and ``val`` the stored values, or
``val`` is ``None`` for a **binary** CSR row (every stored value is 1: the loops pass it so
when the whole input is binary, ``all_ones``). Numba prunes the ``is None`` branches at
compile time, so each layout gets a tight loop. A binary row skips the multiplications by 1
and never reads the values: bit for bit the same results, since x·1.0 = x, a·1.0 = a and a
sum of n ones is n exactly (n < 2^53).

Numba prunes ``x is None`` before typing only where x is the literal ``None`` (IR inlining
keeps literals, not types); every other branch is typed, even one that never runs. So an
inlined kernel tests ``idx is None`` first and guards its dense code with ``val is not None``
(always true there, but it drops that code for binary rows), then tests ``val is None``.

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


# Small kernels are inlined into the rules and the loops (numba IR inlining): a call per row
# costs more than the arithmetic on short rows. The two dense dot bodies and the finiteness
# check stay separate calls because inlining drops their fastmath flags (no SIMD); the sparse
# fast dot writes its partial sums out instead, so it needs no flag and is inlined.
INLINE = "always"
# Rarely-run paths (first rounds, exact norm refreshes, renormalizing a scaled vector) are not
# inlined: a call costs nothing there, and inlining them made up much of the compile time
# (e-OMM's first-round functions alone: 25 -> 11 s per layout, throughput unchanged).
COLD = "never"
# Helpers doing O(nnz(x)) work or more that a rule calls from several places: one compiled
# copy instead of one per call site (PUMMA's stored-point updates: its step compiled in 18 s).
SHARED = "never"
# Hot kernels with loops are compiled once per signature and inlined by LLVM when the
# caller's module is linked (``forceinline``: LLVM's alwaysinline; numba keeps every
# function's bitcode for that, cached ones included), not by numba: numba's IR inlining
# deep-copies the callee's IR at every call site and nesting level, which made the CSR dot's
# four partial sums cost the linear family 20 s of compile time; LLVM's costs nothing
# measurable, and the code is the same (no call per row either way).
LLVM_INLINE = True


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


@jit(forceinline=LLVM_INLINE)
def _sparse_dot_split(v, idx, val):
    """v·x over a CSR row in four partial sums: term k goes to sum k mod 4 for
    k < 4⌊n/4⌋, the last n mod 4 terms to the first; then (s0 + s1) + (s2 + s3). The gathered
    reads v[idx[k]] then no longer wait on one serial chain of additions. The order is
    written out rather than left to ``fastmath``, so that it gives the same bits on every
    machine (a vector width chosen by LLVM would not), with values or binary."""
    n = idx.shape[0]
    m = n - n % 4
    s0 = s1 = s2 = s3 = 0.0
    if val is None:
        for k in range(0, m, 4):
            s0 += v[idx[k]]
            s1 += v[idx[k + 1]]
            s2 += v[idx[k + 2]]
            s3 += v[idx[k + 3]]
        for k in range(m, n):
            s0 += v[idx[k]]
    else:
        for k in range(0, m, 4):
            s0 += v[idx[k]] * val[k]
            s1 += v[idx[k + 1]] * val[k + 1]
            s2 += v[idx[k + 2]] * val[k + 2]
            s3 += v[idx[k + 3]] * val[k + 3]
        for k in range(m, n):
            s0 += v[idx[k]] * val[k]
    return (s0 + s1) + (s2 + s3)


@jit(inline=INLINE)
def dot(v, idx, val, fast):
    """v · x (``fast``: reassociated sums, both layouts; otherwise strictly left to right)."""
    if idx is None:
        if val is not None:  # see the module docstring
            if fast:
                return _dense_dot_reassoc(v, val)
            return _dense_dot_strict(v, val)
        return 0.0
    if fast:
        return _sparse_dot_split(v, idx, val)
    s = 0.0
    if val is None:
        for k in range(idx.shape[0]):
            s += v[idx[k]]
    else:
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


@jit()
def all_ones(val):
    """True when every value is exactly 1.0: the CSR input is binary (``val = None`` above).
    Tested in blocks of 256 with an integer OR, which vectorizes (a branch per value did not:
    ~4× slower), and the first block holding another value ends it: only binary input is
    read through."""
    n = val.shape[0]
    for start in range(0, n, 256):
        other = 0
        for j in range(start, min(start + 256, n)):
            other |= val[j] != 1.0
        if other:
            return False
    return True


@jit(inline=INLINE)
def sqnorm(idx, val):
    """‖x‖² (strict order: it is a step-size denominator; a binary row's is its number of
    stored values, the same bits as the sum of n ones)."""
    if idx is not None:
        if val is None:
            return float(idx.shape[0])
    if val is not None:  # see the module docstring
        s = 0.0
        for k in range(val.shape[0]):
            s += val[k] * val[k]
        return s
    return 0.0


@jit(inline=INLINE)
def axpy(a, idx, val, v):
    """v ← v + a·x, touching only the nonzeros of x."""
    if idx is None:
        if val is not None:  # see the module docstring
            for j in range(val.shape[0]):
                v[j] += a * val[j]
    elif val is None:
        for k in range(idx.shape[0]):
            v[idx[k]] += a
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
    elif val is None:
        for k in range(idx.shape[0]):
            v[idx[k]] = 1.0
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
        # As a pointer-sized integer: an unsigned 32-bit column index is zero-extended (the
        # raw i32 would be sign-extended, wrong from column 2^31 on).
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [index],
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
