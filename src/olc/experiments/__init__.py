"""Paper reproductions: one module per paper, each a declarative spec of its experiments and a
runner that only combines data, learners and evaluation."""
