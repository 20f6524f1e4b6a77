"""The input domains of the experts learners (Winnow: {0, 1}; Weighted Majority: ±1 from every
expert), checked on a River example or frame before the compiled step sees it, so that the
error names the feature (and row) instead of the loop's bare refusal."""
import numpy as np

from ..learners._framework.validation import InputError
from ..learners.experts import DOMAIN_TEXT as _DOMAIN_TEXT


def check_row_domain(domain, learner_name, x, raw, columns):
    """Dict ``x`` (its packed values ``raw``) lies in ``domain`` and, for ±1 experts, names
    every expert of ``columns``; else the :func:`domain_error`."""
    values = np.frombuffer(raw)
    ok = (values == 1.0) | (values == (0.0 if domain == "binary" else -1.0))
    if not ok.all() or (domain == "sign" and len(x) != len(columns)):
        raise domain_error(domain, learner_name, x, columns)


def domain_error(domain, learner_name, x, columns):
    """The error for dict ``x``: its first value outside ``domain``, else the first expert of
    ``columns`` it leaves out."""
    allowed = (0.0, 1.0) if domain == "binary" else (-1.0, 1.0)
    for key, value in x.items():
        if float(value) not in allowed:
            return InputError(f"feature {key!r} = {value!r} is outside {learner_name}'s input "
                              f"domain {_DOMAIN_TEXT[domain]}")
    missing = [n for n in columns.names if n not in x]
    return InputError(f"expert {missing[0]!r} gave no prediction: {learner_name} needs every "
                      "expert's ±1 on every example")


def check_frame_domain(domain, learner_name, names, block, known):
    """The frame's values (``block``, columns ``names``) lie in ``domain``; for ±1 experts the
    frame names every expert of ``known`` (None: no expert known yet)."""
    allowed = 0.0 if domain == "binary" else -1.0
    bad = np.argwhere((block != 1.0) & (block != allowed))
    if bad.size:
        r, c = bad[0]
        raise InputError(f"feature {names[c]!r} = {float(block[r, c])!r} at row {r} is outside "
                         f"{learner_name}'s input domain {_DOMAIN_TEXT[domain]}")
    if domain == "sign" and known is not None:
        missing = [n for n in known.names if n not in set(names)]
        if missing:
            raise InputError(f"expert {missing[0]!r} gave no prediction: {learner_name} needs "
                             "every expert's ±1")
