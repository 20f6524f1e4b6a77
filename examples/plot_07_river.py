"""
Progressive validation in River
===============================

Every learner of the catalogue is also a River estimator (``olc.river``). River's
``progressive_val_score`` runs the same online protocol, one dict at a time; here olc's PA-I
and ALMA₂ beside River's own ``PAClassifier`` on River's bundled Phishing data set.
"""
import itertools

import matplotlib.pyplot as plt
from river import datasets, evaluate, linear_model, metrics, preprocessing

import olc.river

models = {
    "olc pa-i": olc.river.make("pa-i", C=0.1),
    "olc alma2": olc.river.make("alma2"),
    "River PAClassifier (PA-I)": linear_model.PAClassifier(C=0.1, mode=1),
}
fig, ax = plt.subplots(figsize=(7, 4))
for label, model in models.items():
    pipeline = preprocessing.StandardScaler() | model
    steps = evaluate.iter_progressive_val_score(datasets.Phishing(), pipeline,
                                                metrics.Accuracy(), step=25)
    seen, accuracy = zip(*((s["Step"], s["Accuracy"].get()) for s in itertools.islice(steps, None)))
    ax.plot(seen, accuracy, label=label)
ax.set_xlabel("examples seen")
ax.set_ylabel("progressive accuracy")
ax.set_ylim(0.5, 1)
ax.legend()
fig.tight_layout()
