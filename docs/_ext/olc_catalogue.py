"""Sphinx extension: one page per learner of olc's catalogue, written at build time.

Each page shows what ``olc algorithms NAME`` prints (the registry's card: summary, class,
citation, parameters with their declared constraints, presets' fixed values, references),
the update rule in the catalogue's words, the class's documentation, and an example that
runs (``tests/docs`` runs every one of them as a doctest). ``learners/index.md`` is the
catalogue as a table. The pages are regenerated from the registry on every build and kept
out of git; a page is rewritten only when its text changed, so incremental builds stay fast.
"""
from pathlib import Path

from olc._util.atomic import write_text
from olc.learners.registry.cards import card_data
from olc.learners.registry.lookup import algorithms

OUT = "learners"

_DOMAIN_DATA = {
    # Winnow: x ∈ {0, 1}; the target is a disjunction of two features.
    "binary": ["rng = np.random.default_rng(0)",
               "X = (rng.random((300, 8)) < 0.3).astype(float)",
               "y = np.where(X[:, 0] + X[:, 1] > 0, 1, -1)        # x₀ ∨ x₁"],
    # Weighted Majority: each feature is an expert's vote in {−1, +1}; expert 2 is right.
    "sign": ["rng = np.random.default_rng(0)",
             "X = np.where(rng.random((300, 8)) < 0.5, 1.0, -1.0)  # 8 experts' votes",
             "y = X[:, 2]                                        # expert 2 is always right"],
    "real": ["X, y = olc.data.separable(300, 5, margin=0.1, seed=0)  # y in {-1, +1}"],
    "regressor": ["rng = np.random.default_rng(0)",
                  "X = rng.normal(size=(300, 5))",
                  "y = X @ [1.0, -2.0, 0.5, 0.0, 3.0] + 0.1"],
}


def page_name(name):
    """The page of learner ``name`` (``projectron++`` → ``projectron-pp``)."""
    return name.replace("+", "-p").replace("--p", "-pp")


def example_lines(entry):
    """A doctest that builds the learner by name and runs the online protocol on a small
    stream of its input domain."""
    domain = getattr(entry.cls, "input_domain", None) or "real"
    data = _DOMAIN_DATA["regressor" if entry.kind == "regressor" else domain]
    lines = [">>> import numpy as np, olc"]
    lines += [f">>> {line}" for line in data]
    lines.append(f'>>> learner = olc.make("{entry.name}")')
    lines.append(">>> result = olc.progressive(learner, X, y)    # predict, then learn")
    if entry.kind == "regressor":
        lines += [">>> print(f\"steps: {len(y)}, mean squared error: \""
                  "f\"{result.squared_error / len(y):.3g}\")  # doctest: +ELLIPSIS",
                  "steps: 300, mean squared error: ..."]
    else:
        lines += [">>> print(f\"steps: {len(y)}, mistakes: {result.mistakes}, \""
                  "f\"updates: {result.updates}\")  # doctest: +ELLIPSIS",
                  "steps: 300, mistakes: ..., updates: ..."]
    lines += [">>> learner.predict(X[:4]).shape", "(4,)"]
    return lines


def _table_cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def learner_page(entry):
    data = card_data(entry.name)
    cls = data["class"]
    out = [f"({page_name(entry.name)})=", "", f"# {entry.name}", "",
           f"{data['description']}", "",
           f"- **Class:** {{py:class}}`{cls}` ({data['kind']}); "
           f"`olc.make(\"{entry.name}\")`",
           f"- **Source:** {data['citation']}",
           f"- **Compiled family:** `{entry.family}` (compiled once per machine, on first use)",
           "", "## Update rule", "",
           f"{data['summary']}", "",
           f"({data['citation']}; the class documentation below gives the full rule and the "
           "decisions where the paper is silent.)", ""]
    out += ["## Parameters", ""]
    if data["parameters"]:
        out += ["| parameter | default | constraint |", "|---|---|---|"]
        for p in data["parameters"]:
            out.append(f"| `{p['name']}` | `{p['default']!r}` | "
                       f"{_table_cell(p['constraint'] or '(not declared)')} |")
    else:
        out.append("No parameter.")
    if data["fixed"]:
        fixed = ", ".join(f"`{k} = {v!r}`" for k, v in data["fixed"].items())
        out += ["", f"Fixed by this preset of {{py:class}}`{cls}`: {fixed}."]
    out += ["", "## Example", "", "```pycon", *example_lines(entry), "```", "",
            "## References", ""]
    for ref in data["references"]:
        out.append(f"- **[{ref['key']}]** {ref['text']}")
    out += ["", "See also the [bibliography](../references.md).", "",
            "## Class documentation", "", "```{eval-rst}",
            f".. autoclass:: {cls}", "   :no-index:", "```", ""]
    return "\n".join(out)


def catalogue_table(entries, link=""):
    """The catalogue as Markdown tables (classifiers, regressors); ``link``: the path from the
    including page to the learner pages."""
    out = []
    for kind, title in (("classifier", "Classifiers"), ("regressor", "Regressors")):
        out += [f"## {title}", "", "| name | update | source |", "|---|---|---|"]
        for e in entries:
            if e.kind == kind:
                out.append(f"| [`{e.name}`]({link}{page_name(e.name)}.md) "
                           f"| {_table_cell(e.summary)} | {_table_cell(e.citation)} |")
        out.append("")
    return out


def index_page(entries):
    out = ["(learners)=", "", "# Learners", "",
           "Every learner of the catalogue, by the name `olc.make` and `olc run` take. "
           "`olc algorithms NAME` prints the same card on the command line.", "",
           "```{toctree}", ":hidden:", "", *[page_name(e.name) for e in entries], "```", ""]
    return "\n".join(out + catalogue_table(entries))


def _write_if_changed(path, text):
    if not path.is_file() or path.read_text(encoding="utf-8") != text:
        write_text(path, text)  # atomically: a killed build leaves no half-written page


def write_pages(srcdir):
    """Write ``learners/*.md`` under ``srcdir``; stale pages of removed learners go."""
    folder = Path(srcdir) / OUT
    entries = algorithms()
    wanted = {"index.md": index_page(entries),
              # included by the guide's "Choosing a learner" (not a page of its own)
              "catalogue-table.inc": "\n".join(catalogue_table(entries, "../learners/"))}
    wanted.update({f"{page_name(e.name)}.md": learner_page(e) for e in entries})
    for name, text in wanted.items():
        _write_if_changed(folder / name, text)
    for old in [*folder.glob("*.md"), *folder.glob("*.inc")]:
        if old.name not in wanted:
            old.unlink()


def _on_builder_inited(app):
    # autosummary writes api/generated/ after this and never removes a stub: start afresh
    # so that a name no longer listed leaves no orphan page behind
    import shutil

    shutil.rmtree(Path(app.srcdir) / "api" / "generated", ignore_errors=True)
    write_pages(app.srcdir)


def setup(app):
    app.connect("builder-inited", _on_builder_inited, priority=400)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
