"""Sphinx configuration of olc's documentation site.

Build: ``python -m sphinx -W --keep-going -b html docs docs/_build/html`` (from the repository
root). The learner pages (``learners/``), the API stubs (``api/generated/``) and the gallery
(``auto_examples/``) are written at build time and not kept in git.
"""
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent / "src"))
os.environ.setdefault("MPLBACKEND", "Agg")
os.environ.setdefault("OLC_COMPILE_NOTICE", "0")

import olc  # noqa: E402

project = "olc"
author = "the olc authors"
copyright = "the olc authors"
release = version = olc.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
    "olc_catalogue",
    "olc_docstrings",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "screenshots", "Thumbs.db", ".DS_Store", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.md5",
                    "auto_examples/*.json"]
templates_path = ["_templates"]
html_static_path = ["_static"]
html_css_files = ["olc.css"]

# -- cross-references: olc's own names must resolve; other projects' are not linked (the
# build runs offline, without intersphinx), so they are not checked.
nitpicky = True
nitpick_ignore_regex = [(r"py:.*", r"(?!olc\b).*")]

# -- API reference ------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False, "inherited-members": False}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

# -- Markdown pages (the guide and the developer pages) -----------------------------------
myst_enable_extensions = ["colon_fence", "dollarmath"]
myst_heading_anchors = 3

# -- gallery ------------------------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": str(HERE.parent / "examples"),
    "gallery_dirs": str(HERE / "auto_examples"),
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",   # files are numbered so families repeat
    "abort_on_example_error": True,
    "download_all_examples": False,
    "remove_config_comments": True,
    "backreferences_dir": None,
    "show_memory": False,
    "min_reported_time": 1,
}

# -- HTML ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"olc {version}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 6,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "getting-started": []}
html_show_sourcelink = False
