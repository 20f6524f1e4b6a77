"""Run the reproduction: check the data sets (SRAA is optional), then the engine."""
from __future__ import annotations

import dataclasses

from . import data as sd_data


def select_datasets(text):
    """The data sets to run and {skipped: why}; unknown names and missing required data are
    errors (raised before any run)."""
    names = [d.strip() for d in str(text).split(",") if d.strip()]
    unknown = [d for d in names if d not in sd_data.DATASETS]
    if unknown or not names:
        raise ValueError(f"--datasets: unknown data set(s) {unknown or [text]}; choose from "
                         f"{', '.join(sd_data.DATASETS)}")
    kept, skipped = [], {}
    for d in dict.fromkeys(names):
        ok, why = sd_data.available(d)
        if ok:
            kept.append(d)
        elif d == "sraa":  # not obtainable here: run what is there, say why it was skipped
            skipped[d] = why
        else:
            from ...data import fetch

            fetch(d, download=True)  # raises the registry's "put FILE in FOLDER" error
            kept.append(d)
    if not kept:
        raise ValueError("--datasets: none of the requested data sets is available "
                         f"({'; '.join(f'{k}: {v}' for k, v in skipped.items())})")
    return kept, skipped


def run(out_dir, *, trials=40, datasets="usps,20newsgroups,sraa", grids=None, n_jobs=2,
        scheduler=None, force=False, rows_per_phase=None, echo=print):
    from ..engine.cli_support import print_outputs
    from ..engine.cli_support import interruptible
    from ..engine.experiment import run_experiment
    from .reproduce import REPRODUCTION

    kept, skipped = select_datasets(datasets)
    spec = REPRODUCTION.spec(trials=trials, datasets=tuple(kept), grids=grids,
                             rows_per_phase=rows_per_phase)
    reproduction = dataclasses.replace(REPRODUCTION, streams_to_write=tuple(kept))
    for d, why in skipped.items():
        echo(f"skipped {d}: {why} (SRAA is registered but not obtainable here; put "
             "sraa.tar.gz in the data home to run it)")
    with interruptible():
        report = run_experiment(spec, out_dir, n_jobs=n_jobs, scheduler=scheduler,
                                force=force, reproduction=reproduction)
    report["skipped"] = skipped
    from pathlib import Path

    from ..._atomic import write_text
    from .claims import why_we_disagree

    summary = Path(report["files"]["summary"])
    text = summary.read_text() + "\n" + "\n".join(why_we_disagree(report["results"])) + "\n"
    if skipped:
        text += "\n## Skipped data sets\n\n" + "".join(
            f"- {d}: {why}\n" for d, why in skipped.items())
    write_text(summary, text)
    print_outputs(report) if echo is not print else None
    return report
