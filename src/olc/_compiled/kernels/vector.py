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
from numba.core.imputils import impl_ret_borrowed
from numba.extending import intrinsic

from ..caching import jit
from .overflow import scaled_dot


# Small kernels are inlined into the rules and the loops (numba IR inlining): a call per row
# costs more than the arithmetic on short rows. The two dense dot bodies and the finiteness
# check stay separate calls because inlining drops their fastmath flags (no SIMD); the sparse
# fast dot writes its partial sums out instead, so it needs no flag and is inlined.
INLINE = "always"
# Rarely-run paths (first rounds, exact norm refreshes, renormalizing a scaled vector) are not
# inlined: a call costs nothing there, and inlining them made up much of the compile time
# (e-OMM's first-round functions alone: 11 s per layout against 25 inlined, the same
# throughput).
COLD = "never"
# Helpers doing O(nnz(x)) work or more that a rule calls from several places: one compiled
# copy instead of one per call site (PUMMA's stored-point updates: its step compiled in 18 s).
SHARED = "never"
# Hot code with loops that numba would IR-inline many times (the steps of the rules compiled
# twice for binary CSR rows, loops/binary.py) is compiled once per signature and inlined by LLVM
# when the caller's module is linked (``forceinline``: LLVM's alwaysinline; numba keeps
# every function's bitcode for that, cached ones included): numba's IR inlining deep-copies
# the callee's IR at every call site and nesting level (the linear family compiles in 11 s
# so, 56 s IR-inlined); LLVM's costs nothing measurable, and the machine code is the
# same (no call per row either way).
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


def sparse_dot_split_reference(v, idx, val):
    """v·x over a CSR row in four partial sums — the order of the fast CSR dot, written out:
    term k goes to sum k mod 4 for k < 4⌊n/4⌋, the last n mod 4 terms to the first, then
    (s0 + s1) + (s2 + s3). The gathered reads v[idx[k]] then no longer wait on one serial
    chain of additions, and the order is fixed rather than left to ``fastmath`` (LLVM picks
    a vector width per machine): the same bits everywhere, with values or binary (val None).
    Compiled, this runs as the vector intrinsic below (bit for bit: tested); numba would keep
    these four sums scalar (its SLP vectorizer is off), ~20 % slower on W2-like rows whose
    weights sit in L2/L3. Plain Python: the kernel when NUMBA_DISABLE_JIT=1."""
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


def _sparse_dot_split_intrinsic(typingctx, v, idx, val):
    """``sparse_dot_split_reference`` as LLVM vector code: the four sums are the four lanes
    of one <4 x double> accumulator (lane-wise fmul/fadd without fast-math flags are the
    scalar IEEE operations), fed by four gathered weights per step; the tail goes to lane 0,
    then (s0 + s1) + (s2 + s3). Contiguous 1-D rows; the weights contiguous or strided (the
    feature-major averaged states, ``layouts/feature_major.py``)."""
    if not (isinstance(v, types.Array) and v.ndim == 1 and v.layout in "CA"):
        return None
    for arr in (idx,) + (() if val is types.none else (val,)):
        if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"):
            return None
    sig = types.float64(v, idx, val)

    def codegen(context, builder, signature, args):
        vty, idxty, valty = signature.args
        binary = isinstance(valty, types.NoneType)
        w = context.make_array(vty)(context, builder, args[0])
        cols = context.make_array(idxty)(context, builder, args[1])
        vals = None if binary else context.make_array(valty)(context, builder, args[2])
        intp = context.get_value_type(types.intp)
        d4 = ir.VectorType(ir.DoubleType(), 4)
        lane = [ir.Constant(ir.IntType(32), j) for j in range(4)]
        n = builder.extract_value(cols.shape, 0)
        m = builder.sub(n, builder.srem(n, ir.Constant(intp, 4)))

        def weight(k):
            col = context.cast(builder, builder.load(builder.gep(cols.data, [k])),
                               idxty.dtype, types.intp)
            if vty.layout == "C":
                return builder.load(builder.gep(w.data, [col]))
            return builder.load(cgutils.get_item_pointer(context, builder, vty, w, [col],
                                                         wraparound=False))

        acc = cgutils.alloca_once_value(builder, ir.Constant(d4, [0.0] * 4))
        with cgutils.for_range_slice(builder, ir.Constant(intp, 0), m,
                                     ir.Constant(intp, 4)) as (k, _):
            g = ir.Constant(d4, ir.Undefined)
            for j in range(4):
                g = builder.insert_element(g, weight(builder.add(k, ir.Constant(intp, j))),
                                           lane[j])
            if not binary:
                x = builder.bitcast(builder.gep(vals.data, [k]), d4.as_pointer())
                g = builder.fmul(g, builder.load(x, align=8))
            builder.store(builder.fadd(builder.load(acc), g), acc)
        total = builder.load(acc)
        sums = [builder.extract_element(total, lane[j]) for j in range(4)]
        s0 = cgutils.alloca_once_value(builder, sums[0])
        with cgutils.for_range_slice(builder, m, n, ir.Constant(intp, 1)) as (k, _):
            t = weight(k)
            if not binary:
                t = builder.fmul(t, builder.load(builder.gep(vals.data, [k])))
            builder.store(builder.fadd(builder.load(s0), t), s0)
        return builder.fadd(builder.fadd(builder.load(s0), sums[1]),
                            builder.fadd(sums[2], sums[3]))

    return sig, codegen


@jit(inline=INLINE)
def _plain_dot(v, idx, val, fast):
    if idx is None:
        if val is not None:  # see the module docstring
            if fast:
                return _dense_dot_reassoc(v, val)
            return _dense_dot_strict(v, val)
        return 0.0
    if fast:
        return sparse_dot_split(v, idx, val)
    s = 0.0
    if val is None:
        for k in range(idx.shape[0]):
            s += v[idx[k]]
    else:
        for k in range(idx.shape[0]):
            s += v[idx[k]] * val[k]
    return s


@jit(inline=INLINE)
def dot(v, idx, val, fast):
    """v · x (``fast``: reassociated sums, both layouts; otherwise strictly left to right).
    A sum that is not finite (a partial sum overflowed: +inf and −inf terms give NaN, or
    finite terms an inf) is recomputed by :func:`scaled_dot`: ±inf with the right sign when
    |v·x| exceeds the largest double, else its finite value; one test per dot otherwise."""
    s = _plain_dot(v, idx, val, fast)
    if s - s == 0.0:
        return s
    return scaled_dot(v, idx, val, 1.0)


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
    Counted in fixed blocks of 1,024 (a count of ``== 1.0`` vectorizes; a branch per value
    did not, and a block bound of ``min(start + 1024, n)`` did not either: 27 ms against
    7.5 ms on 10^7 values, as fast as memory), and the first block holding another value
    (NaN included) ends it: only binary input is read through."""
    n = val.shape[0]
    full = n - n % 1024
    for start in range(0, full, 1024):
        block = val[start:start + 1024]
        count = 0
        for j in range(1024):
            count += block[j] == 1.0
        if count != 1024:
            return False
    for j in range(full, n):
        if val[j] != 1.0:
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


@jit(inline=INLINE)
def sign(score):
    """sign with sign(0) = +1 (the convention of every algorithm in this package)."""
    return 1.0 if score >= 0.0 else -1.0


def _prefetch_intrinsic(typingctx, arr, idx):
    """Hint the CPU to fetch ``arr[idx]`` into cache (LLVM ``llvm.prefetch``, read, high
    locality). The CSR loops issue it for the weights the row after next will read: random
    reads into a large weight vector are what bounds them (docs/architecture.md, "CSR rows")."""
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


def _writable_intrinsic(typingctx, arr):
    """The same array typed as writable. A read-only array differs from a writable one only
    in its numba type (the data structure is the same), and the type is part of every
    signature a rule step is compiled for: the one-example entries (``one_row.py``) fill a
    read-only scratch row through this view, so that the step they call has exactly the
    argument types of the loops' CSR rows and its compiled code is shared, not compiled
    again. Only for buffers the caller owns and lent read-only for that purpose."""
    if not (isinstance(arr, types.Array) and arr.ndim == 1 and arr.layout == "C"):
        return None
    sig = arr.copy(readonly=False)(arr)

    def codegen(context, builder, signature, args):
        return impl_ret_borrowed(context, builder, signature.return_type, args[0])

    return sig, codegen


def _bytes_as_intrinsic(typingctx, buf, dtype):
    """``numpy.frombuffer(buf, dtype)`` for a ``bytes`` object, inlined: a read-only array
    over the bytes' own memory. numba's ``frombuffer`` returns its array from a compiled
    function, which code without numba's runtime may not do (``one_row.py``)."""
    if not (isinstance(buf, types.Bytes) and isinstance(dtype, types.NumberClass)):
        return None
    ret = types.Array(dtype.dtype, 1, "C", readonly=True)
    sig = ret(buf, dtype)

    def codegen(context, builder, signature, args):
        from numba.np.arrayobj import populate_array

        src = context.make_array(signature.args[0])(context, builder, value=args[0])
        out = context.make_array(ret)(context, builder)
        item_type = context.get_data_type(ret.dtype)
        itemsize = context.get_constant(types.intp, context.get_abi_sizeof(item_type))
        n = builder.sdiv(builder.mul(src.nitems, src.itemsize), itemsize)
        populate_array(out, data=builder.bitcast(src.data, item_type.as_pointer()), shape=[n],
                       strides=[itemsize], itemsize=itemsize, meminfo=src.meminfo,
                       parent=src.parent)
        return impl_ret_borrowed(context, builder, ret, out._getvalue())

    return sig, codegen


if nb.config.DISABLE_JIT:
    import numpy as _np

    def bytes_as(buf, dtype):
        """Plain Python: ``numpy.frombuffer``."""
        return _np.frombuffer(buf, dtype)

    def prefetch(arr, idx):
        """No-op when numba runs the code as Python (NUMBA_DISABLE_JIT=1, coverage runs)."""
    sparse_dot_split = sparse_dot_split_reference

    def writable(arr):
        """Plain Python: a view that may be written (``arr``'s flag is set by its owner)."""
        view = arr.view()
        view.flags.writeable = True
        return view
else:
    prefetch = intrinsic(_prefetch_intrinsic)
    sparse_dot_split = intrinsic(_sparse_dot_split_intrinsic)
    writable = intrinsic(_writable_intrinsic)
    bytes_as = intrinsic(_bytes_as_intrinsic)


PREFETCH_AHEAD = 2  # rows; measured best on W2 (d = 2^20, 50 nnz/row): 1.13× over none
PREFETCH_MIN_WEIGHTS = 2**20  # float64 weights (8 MiB) below which the loops do not prefetch
# Rows ahead whose stored entries the CSR loops prefetch. A shuffled pass (the drop-ins'
# epochs) reads each row from a random place, and the row's first cache lines then miss;
# measured on a bare perceptron loop, shuffled, without and with it: 20-Newsgroups-like rows
# (d = 130,000, 60 valued entries) 0.31 and 0.16 s, W2 (binary, d = 2^20) 0.117 and
# 0.087 s; in order, W2 0.056 and 0.049 s. Four rows: the weight prefetch (PREFETCH_AHEAD)
# then reads indices that are already on their way.
ROW_PREFETCH_AHEAD = 4


@jit(inline=INLINE)
def prefetch_weights(vecs, n_rows, cols):
    """Prefetch the weights at columns ``cols`` of the first ``n_rows`` rows of ``vecs``
    (a CSR loop, for the row it will read ``PREFETCH_AHEAD`` rows later)."""
    for r in range(n_rows):
        row = vecs[r]
        for q in range(cols.shape[0]):
            prefetch(row, cols[q])


@jit(inline=INLINE)
def prefetch_csr_row(data, indices, a, b):
    """Prefetch the stored entries [a, b) of a CSR matrix: one hint per cache line of
    ``indices`` and of ``data`` (None: binary rows, no values), and the last line of each,
    which an unaligned row may start."""
    if b > a:
        for q in range(a, b, 64 // indices.itemsize):
            prefetch(indices, q)
        prefetch(indices, b - 1)
        if data is not None:
            for q in range(a, b, 8):
                prefetch(data, q)
            prefetch(data, b - 1)
