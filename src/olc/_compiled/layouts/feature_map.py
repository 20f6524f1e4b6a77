"""Layout of the ``feature_map`` family: online gradient descent on the hinge loss in an
approximate kernel feature space, z(x) = √(2/D)·cos(xΩ + b) (random Fourier features,
scikit-learn's ``RBFSampler``), f(x) = w·z(x) + bias.

  vecs   Ω, (d, D): the random directions **by feature** (Ω[j, k]), so the D projections of
         a row are nnz(x) contiguous passes Ω[j, :]·x_j, in the same order for dense and
         CSR rows (dense zero entries skipped).
  scal   the header (:data:`FeatureMapScal`), then three blocks of D slots: OFFSET (b),
         W (the weights) and Z (scratch: z(x) of the row in hand, zero between rows).
  ints   none.
"""
from .base import Layout, fields, refuses
from ..rule_ids import FOGD

FeatureMapHP = fields("eta", "fit_intercept", "n_components")
FeatureMapScal = fields("bias", "steps")
HEADER = len(FeatureMapScal)
OFFSET, W, Z = range(3)
N_BLOCKS = 3

FOGD_LAYOUT = Layout(
    FOGD, hp=FeatureMapHP, scalars=FeatureMapScal, vectors=None, variable_vectors=True,
    variable_scalars=True, family="feature_map",
    growth=refuses("the random directions Ω are drawn for d features when learning starts "
                   "(a new feature would need its own row of Ω, drawn from the same "
                   "Gaussian, which changes every projection's distribution)"))


def n_scalars(n_components):
    return HEADER + N_BLOCKS * int(n_components)


def block(scal, which, n_components):
    start = HEADER + which * int(n_components)
    return scal[..., start:start + int(n_components)]
