"""``n_jobs`` as scikit-learn and joblib read it, and the groups of independent work that
threads share.

``effective_n_jobs``: joblib's semantics without importing joblib — None means 1 (scikit-
learn's default outside a ``parallel_backend`` context), a positive n means n, −1 every core
this process may run on, −2 all but one, and so on (n_cpus + 1 + n, at least 1); 0 is an
error. ``groups``: K independent items cut into at most n contiguous, balanced groups."""
import numbers
import os



def available_cores():
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return max(1, os.cpu_count() or 1)


def check_n_jobs(n_jobs, name="n_jobs"):
    """``n_jobs`` validated: None or a nonzero integer (not a bool); the error names it."""
    if n_jobs is None:
        return None
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, numbers.Integral):
        raise ValueError(f"{name} must be None or a nonzero integer; got {n_jobs!r}")
    if int(n_jobs) == 0:
        raise ValueError(f"{name} == 0 has no meaning: use None or 1 for one thread, -1 "
                         "for every core")
    return int(n_jobs)


def effective_n_jobs(n_jobs, name="n_jobs"):
    """The number of threads ``n_jobs`` asks for (joblib's ``effective_n_jobs``)."""
    n_jobs = check_n_jobs(n_jobs, name)
    if n_jobs is None:
        return 1
    if n_jobs < 0:
        return max(1, available_cores() + 1 + n_jobs)
    return n_jobs


def groups(n_items, n_threads):
    """[(first, stop), ...]: items 0..n_items−1 in at most ``n_threads`` contiguous groups
    whose sizes differ by at most one (the first ones larger), none empty."""
    n = max(1, min(int(n_threads), int(n_items)))
    size, extra = divmod(int(n_items), n)
    out, first = [], 0
    for g in range(n):
        stop = first + size + (1 if g < extra else 0)
        out.append((first, stop))
        first = stop
    return out
