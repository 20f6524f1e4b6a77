"""Reading the state of model files written by olc 0.1.0, before the named layouts: each
learner whose state changed shape says, in ``_upgrade_legacy_state(vecs, scal)``, how the old
arrays map to its layout; this module holds the mapping they share."""
import numpy as np


def legacy_scalars(layout, old_scal, names, n_scalars=None, **values):
    """A zeroed ``scal`` of ``layout`` (``n_scalars`` slots when the layout has variable
    scalars) with the slots ``names`` taken from the old array's first ``len(names)`` slots in
    that order, and the other slots given by name in ``values``."""
    new = np.zeros(layout.n_scalars if n_scalars is None else n_scalars)
    for old, name in enumerate(names):
        new[layout.scalars[name.upper()]] = old_scal[old]
    for name, value in values.items():
        new[layout.scalars[name.upper()]] = value
    return new
