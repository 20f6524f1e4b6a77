"""
The scikit-learn drop-in against SGDClassifier
==============================================

scikit-learn deprecated ``PassiveAggressiveClassifier`` in 1.8 and points to
``SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=C)`` instead.
``olc.sklearn.PassiveAggressiveClassifier`` keeps the old class, trained by olc's compiled
loop. With the same settings the two learn the same model: we compare their held-out
accuracy over epochs and their coefficients.
"""
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import SGDClassifier

from olc.sklearn import PassiveAggressiveClassifier

rng = np.random.default_rng(4)
X = rng.normal(size=(3000, 30))
y = (X @ rng.normal(size=30) + 0.5 * rng.normal(size=3000) > 0).astype(int)
X_train, y_train, X_test, y_test = X[:2000], y[:2000], X[2000:], y[2000:]

epochs = np.arange(1, 11)
olc_acc, sk_acc = [], []
for k in epochs:
    ours = PassiveAggressiveClassifier(C=0.1, max_iter=k, tol=None, random_state=0)
    theirs = SGDClassifier(loss="hinge", penalty=None, learning_rate="pa1", eta0=0.1,
                           max_iter=k, tol=None, random_state=0)
    olc_acc.append(ours.fit(X_train, y_train).score(X_test, y_test))
    sk_acc.append(theirs.fit(X_train, y_train).score(X_test, y_test))

fig, (left, right) = plt.subplots(1, 2, figsize=(9, 4))
left.plot(epochs, olc_acc, marker="o", label="olc.sklearn.PassiveAggressiveClassifier")
left.plot(epochs, sk_acc, marker="x", linestyle="--", label='SGDClassifier(learning_rate="pa1")')
left.set_xlabel("epochs (max_iter)")
left.set_ylabel("held-out accuracy")
left.legend(fontsize="small")
right.scatter(theirs.coef_.ravel(), ours.coef_.ravel(), s=12)
right.set_xlabel("SGDClassifier coef_")
right.set_ylabel("olc coef_")
right.set_title(f"largest difference {np.max(np.abs(ours.coef_ - theirs.coef_)):.1e}")
fig.tight_layout()
