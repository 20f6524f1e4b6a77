"""A learner written outside olc, registered by name: its compiled family (rule module and
rule id), its catalogue entry (name, class, family, summary, citation) and its reference."""
from olc._compiled.rule_ids import Family
from olc.learners import register
from olc.references import Reference

from .layout import MARGIN_PERCEPTRON

register(
    "margin-perceptron", f"{__name__}.learner:MarginPerceptron", "classifier",
    "Margin perceptron: w ← w + η·y·x when y(w·x + b) ≤ γ",
    "Krauth & Mézard 1987", ["krauth-mezard-1987"], family="toy_margin",
    compiled_family=Family("toy_margin", (MARGIN_PERCEPTRON,), f"{__name__}.rule",
                           "margin perceptron", binary_rows=True),
    new_references=[Reference(
        "krauth-mezard-1987", "Krauth & Mézard 1987",
        "Werner Krauth and Marc Mézard. Learning algorithms with optimal stability in neural "
        "networks. Journal of Physics A 20(11), L745–L752, 1987.")])
