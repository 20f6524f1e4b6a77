"""The row order of scikit-learn's ``_plain_sgd`` epochs, reproduced.

Each epoch ``_plain_sgd`` calls ``SequentialDataset.shuffle(seed)`` with the *same* seed on
the dataset's index array, which carries over from the epoch before: a Fisher–Yates pass
``j = i + our_rand_r(&seed) % (n − i)`` for i = 0..n−2, with ``our_rand_r`` the xorshift32
generator of ``sklearn/utils/_random.pxd`` (x ^= x << 13; x ^= x >> 17; x ^= x << 5; a 0 seed
is taken as 1; the result modulo 2³¹) — ``sklearn/utils/_seq_dataset.pyx.tp``. The swaps do
not depend on the array's contents, so one pass is a fixed permutation π of positions
(``index_new[k] = index_old[π[k]]``) and epoch e's order is π applied e times to 0..n−1.

The generator is sequential, so π is computed by a small compiled function (numba, disk-cached
in the numba cache: compiled once, only by drop-in users who shuffle)."""
import numpy as np

_kernel = None


def _compiled_kernel():
    global _kernel
    if _kernel is None:
        import numba

        @numba.njit(cache=True)
        def fisher_yates_permutation(n, seed):
            perm = np.arange(n)
            x = np.uint32(seed)
            if x == 0:
                x = np.uint32(1)
            for i in range(n - 1):
                x ^= np.uint32(x << np.uint32(13))
                x ^= np.uint32(x >> np.uint32(17))
                x ^= np.uint32(x << np.uint32(5))
                r = x % np.uint32(2147483648)
                j = i + int(r % np.uint32(n - i))
                perm[i], perm[j] = perm[j], perm[i]
            return perm

        _kernel = fisher_yates_permutation
    return _kernel


def epoch_permutation(n, seed):
    """π for ``SequentialDataset.shuffle(seed)`` over n rows (seed: a uint32)."""
    return _compiled_kernel()(int(n), int(seed) & 0xFFFFFFFF)
