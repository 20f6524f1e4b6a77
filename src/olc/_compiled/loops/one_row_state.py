"""The state a one-example entry (``one_row.py``) works on, passed as one int64 array of
addresses and shapes — the *state descriptor* — instead of six arrays.

Why: numba's compiled wrapper unboxes every array argument on every call (a reference-counted
wrapper is made and released per array): six arrays cost ~0.9 µs a call, one int64 array
~0.35 µs (measured: process CPU time, entry points called from Python). River
calls two entries per example. Inside, ``unpack`` views the memory as the very array types
the model would have passed — writable C arrays for the state (float64 2-d ``vecs``, int64
``ints``, float64 ``scal`` and ``hp``), read-only ones for the scratch row (uint32 columns,
float64 values) — so the rule step is still the one compiled for the loops' CSR rows.

The views own nothing: the caller keeps the arrays alive as long as it uses the descriptor
(``descriptor`` returns both, and a River model holds them together, replaced together
whenever a state array is replaced).
"""
import ctypes

import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

#: The types ``descriptor`` accepts, in its order: every olc binary learner's and regressor's
#: state (vecs, ints, scal), its hyper-parameters and the scratch row (``row_buffers``).
LAYOUT = ((np.float64, 2, False), (np.int64, 1, False), (np.float64, 1, False),
          (np.float64, 1, False), (np.uint32, 1, True), (np.float64, 1, True))
NAMES = ("vecs", "ints", "scal", "hp", "idx_buf", "val_buf")


def descriptor(vecs, ints, scal, hp, idx_buf, val_buf):
    """(int64 descriptor, the arrays it points into): per array its address, then its shape
    (two entries for ``vecs``, one for the others). Refuses an array of another type or not
    C-contiguous: the entries would read it wrongly; or a read-only state array (a model
    loaded with joblib's ``mmap_mode="r"``): the entries write the state through the
    address, which would crash on read-only memory."""
    arrays = (vecs, ints, scal, hp, idx_buf, val_buf)
    desc = []
    for name, a, (dtype, ndim, readonly) in zip(NAMES, arrays, LAYOUT):
        if (not isinstance(a, np.ndarray) or a.dtype != dtype or a.ndim != ndim
                or not a.flags.c_contiguous):
            raise TypeError(f"olc: the one-example entries take {name} as a C-contiguous "
                            f"{np.dtype(dtype).name} array of {ndim} dimension(s)")
        if not readonly and not a.flags.writeable:
            raise ValueError(f"olc: the one-example entries write {name}, which is read-only")
        desc.append(a.ctypes.data)
        desc.extend(a.shape)
    return np.array(desc, np.int64), arrays


def _view_intrinsic(ret):
    """An intrinsic ``view(address, shape)``: the C array of type ``ret`` at that address
    (no owner: nothing is reference-counted)."""

    def typer(typingctx, address, shape):
        sig = ret(types.int64, types.UniTuple(types.int64, ret.ndim))

        def codegen(context, builder, signature, args):
            from numba.np.arrayobj import populate_array

            address, shape = args
            item = context.get_data_type(ret.dtype)
            itemsize = context.get_abi_sizeof(item)
            dims = cgutils.unpack_tuple(builder, shape, ret.ndim)
            strides, step = [], context.get_constant(types.intp, itemsize)
            for dim in reversed(dims):
                strides.insert(0, step)
                step = builder.mul(step, dim)
            out = context.make_array(ret)(context, builder)
            populate_array(out, data=builder.inttoptr(address, item.as_pointer()), shape=dims,
                           strides=strides, itemsize=context.get_constant(types.intp, itemsize),
                           meminfo=None)
            return out._getvalue()

        return sig, codegen

    return intrinsic(typer)


def _python_view(dtype, readonly):
    """NUMBA_DISABLE_JIT=1: the same view through ctypes."""

    def view(address, shape):
        n = int(np.prod(shape)) * np.dtype(dtype).itemsize
        a = np.frombuffer((ctypes.c_char * n).from_address(int(address)), dtype).reshape(shape)
        a.flags.writeable = not readonly
        return a

    return view


if nb.config.DISABLE_JIT:
    _VIEWS = tuple(_python_view(dtype, ro) for dtype, _, ro in LAYOUT)
else:
    _VIEWS = tuple(_view_intrinsic(types.Array(nb.from_dtype(np.dtype(dtype)), ndim, "C",
                                               readonly=ro))
                   for dtype, ndim, ro in LAYOUT)
_vecs_at, _ints_at, _scal_at, _hp_at, _idx_at, _val_at = _VIEWS


@nb.njit(inline="always", _nrt=False)
def unpack(d):
    """(vecs, ints, scal, hp, idx_buf, val_buf) of descriptor ``d``."""
    return (_vecs_at(d[0], (d[1], d[2])), _ints_at(d[3], (d[4],)), _scal_at(d[5], (d[6],)),
            _hp_at(d[7], (d[8],)), _idx_at(d[9], (d[10],)), _val_at(d[11], (d[12],)))
