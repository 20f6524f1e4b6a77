"""The ``olc`` command line: a thin layer over the library (learners, data, evaluate, report).

:mod:`.app` is the application and its console entry point (:func:`.app.run`); each command is a module
(:mod:`.algorithms`, :mod:`.datasets`, :mod:`.warmup`, :mod:`.run`, :mod:`.compare`,
:mod:`.reproduce`: ``olc reproduce`` and ``olc experiment``); :mod:`.options` holds the
options ``run`` and ``compare`` share (``--data``, ``--param``), :mod:`.support` what every
command shares (one-line errors, the console, the compile notice, output path checks, the
end of the process). Each command imports the library when it runs, so ``olc --help``
starts without numpy, scikit-learn or numba.
"""
from .app import app

__all__ = ["app"]
