"""The margin perceptron's layout: its rule id, its state by name, and whether that state can
grow when new features appear (plain Python: a learner imports it without numba)."""
from olc._compiled.layouts.base import Layout, fields, grows
from olc._compiled.rule_ids import FIRST_EXTERNAL_ID

MARGIN_PERCEPTRON = FIRST_EXTERNAL_ID  # ids from FIRST_EXTERNAL_ID on are for users' rules

MarginPerceptronHP = fields("eta", "gamma", "fit_intercept")
MarginPerceptronScal = fields("bias")
MarginPerceptronVec = fields("w")
MARGIN_PERCEPTRON_LAYOUT = Layout(
    MARGIN_PERCEPTRON, hp=MarginPerceptronHP, scalars=MarginPerceptronScal,
    vectors=MarginPerceptronVec,
    growth=grows("w·x over x's support, w += ηy·x on it, the bias a scalar"))
