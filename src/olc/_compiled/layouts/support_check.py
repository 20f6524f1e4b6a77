"""Consistency of the support sets kept in a rule's integer state, for state read from a file.

A support set (``scaled.support_*``) is named by the layout: an integer slot ``<p>_count``
and two integer blocks of length d, ``<p>_list`` (the listed coordinates, first ``count``
entries) and ``<p>_pos`` (1 + a coordinate's place in the list, 0 when unlisted). It tracks
the vector ``<p>`` of the layout (or its only vector): every nonzero coordinate of that vector
is listed, which the compiled rules rely on (they skip the list where v ≠ 0 and index ``vecs``
with the listed coordinates), so a file breaking it could crash the process or misread the
model. Plain NumPy (no numba): ``olc.load`` checks before compiled code sees the arrays.
"""
import numpy as np


def support_sets(layout):
    """[(prefix, count slot, list block, pos block, tracked row)] of ``layout``."""
    if layout is None or layout.int_slots is None or layout.int_blocks is None:
        return []
    blocks = {m.name.lower(): m for m in layout.int_blocks}
    vectors = {m.name.lower(): int(m) for m in (layout.vectors or ())}
    found = []
    for slot in layout.int_slots:
        name = slot.name.lower()
        if not name.endswith("_count"):
            continue
        prefix = name[:-len("_count")]
        listed, pos = blocks.get(prefix + "_list"), blocks.get(prefix + "_pos")
        if listed is None or pos is None:
            continue
        row = vectors.get(prefix, next(iter(vectors.values())) if len(vectors) == 1 else None)
        if row is None:
            raise ValueError(f"support set {prefix!r} of rule {layout.rule} tracks no vector")
        found.append((prefix, int(slot), listed, pos, row))
    return found


def check_support_sets(layout, vecs, ints):
    """None, or a message naming the first broken support set, what was expected and where."""
    d = vecs.shape[1]
    for prefix, count_slot, listed_block, pos_block, row in support_sets(layout):
        count = int(ints[count_slot])
        listed = ints[layout.int_block(listed_block, d):][:d]
        pos = ints[layout.int_block(pos_block, d):][:d]
        field = f"ints: support set {prefix!r}"
        if not 0 <= count <= d:
            return f"{field}: expected a count in [0, {d}], found {count}"
        head = listed[:count]
        if head.size and (head.min() < 0 or head.max() >= d):
            bad = int(np.flatnonzero((head < 0) | (head >= d))[0])
            return f"{field}: expected coordinates in [0, {d}), found {int(head[bad])} at {bad}"
        if np.unique(head).size != count:
            return f"{field}: expected distinct coordinates, found repeats in {head.tolist()[:20]}"
        expected_pos = np.zeros(d, dtype=np.int64)
        expected_pos[head] = np.arange(1, count + 1)
        if not np.array_equal(pos, expected_pos):
            j = int(np.flatnonzero(pos != expected_pos)[0])
            return (f"{field}: expected positions consistent with the list (coordinate {j} at "
                    f"{int(expected_pos[j])}, 0 = unlisted), found {int(pos[j])}")
        unlisted = (expected_pos == 0) & (vecs[row] != 0.0)
        if unlisted.any():
            j = int(np.flatnonzero(unlisted)[0])
            return (f"{field}: expected every nonzero coordinate of vecs row {row} listed, "
                    f"found {float(vecs[row, j])!r} at unlisted coordinate {j}")
    return None
