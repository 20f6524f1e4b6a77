"""The algorithm catalogue: the one list of olc's learners.

Each entry names a learner (its canonical name for ``olc.make``), the class that implements it
as a lazy ``"module:Class"`` reference (nothing is imported until the class is needed, so
listing the catalogue imports neither scikit-learn nor numba), the compiled family of its
rule (what a command announces it will compile, known without importing the class), its
kind, a one-line summary, a short citation (authors, year, section/equation) and the keys of
its full references in ``olc.references`` (``docs/references.md``). A *preset* is a named
variant of a class with some parameters fixed (``ce-omm`` is ``EfficientOMM(rho=0)``).

Adding a learner means adding its entry here (``docs/adding-a-learner.md``); the contract
suite then runs every check on it. Importing this module imports no learner (standard library only).
"""
import importlib
from dataclasses import dataclass

CLASSIFIER, REGRESSOR = "classifier", "regressor"


@dataclass(frozen=True)
class AlgorithmInfo:
    """One catalogue entry."""

    name: str
    target: str        # "module:Class", imported on first use of ``cls``
    kind: str          # CLASSIFIER (labels, ±1 internally) or REGRESSOR (real targets)
    summary: str       # one line: what the update does
    citation: str      # short citation: authors, year, section/equation/algorithm
    references: tuple  # keys into olc.references.REFERENCES
    preset: tuple = ()  # fixed parameters of a named variant, as sorted (name, value) pairs
    family: str = ""   # the compiled family of its rule (``_compiled/rule_ids.FAMILIES``)

    @property
    def module(self):
        return self.target.partition(":")[0]

    @property
    def class_name(self):
        return self.target.partition(":")[2]

    @property
    def cls(self):
        """The learner class (its module is imported now if it was not yet)."""
        return getattr(importlib.import_module(self.module), self.class_name)

    @property
    def parameters(self):
        """{parameter: default} that ``olc.make(name, ...)`` accepts (presets' fixed ones
        excluded)."""
        import inspect

        fixed = dict(self.preset)
        sig = inspect.signature(self.cls.__init__)
        return {k: p.default for k, p in sig.parameters.items() if k != "self" and k not in fixed}


def _entry(name, target, kind, summary, citation, references, preset=None, *, family):
    return AlgorithmInfo(name, "olc.learners." + target, kind, summary, citation,
                         tuple(references), tuple(sorted((preset or {}).items())), family)


CLF, REG = CLASSIFIER, REGRESSOR
OMM = "ho-nguyen-2025"

CATALOGUE = (
    # -- perceptron and passive-aggressive --------------------------------------------------
    _entry("perceptron", "perceptron:Perceptron", CLF,
           "Perceptron: w ← w + η·y·x when y(w·x + b) ≤ 0",
           "Ho-Nguyen et al. 2025, Example 5.1",
           ["rosenblatt-1958", OMM, "kitani-notes"], family="linear"),
    _entry("pa", "passive_aggressive:PassiveAggressive", CLF,
           "Passive-Aggressive (PA): τ = ℓ/‖x‖²",
           "Crammer et al. 2006, Eq. (6)", ["crammer-2006", "textbook-ch31"], family="linear"),
    _entry("pa-i", "passive_aggressive:PassiveAggressiveI", CLF,
           "PA-I: τ = min(C, ℓ/‖x‖²)",
           "Crammer et al. 2006, Eq. (6)", ["crammer-2006"], family="linear"),
    _entry("pa-ii", "passive_aggressive:PassiveAggressiveII", CLF,
           "PA-II: τ = ℓ/(‖x‖² + 1/(2C))",
           "Crammer et al. 2006, Eq. (6)", ["crammer-2006", "textbook-ch31"], family="linear"),
    # multiclass, K prototypes: w_y += τx, w_r −= τx, r the highest-scoring wrong class
    *(_entry(f"multiclass-{name}", f"multiclass_pa:MulticlassPassiveAggressive{suffix}", CLF,
             f"Multiclass {label}, K prototypes (r: best wrong class): {step}",
             "Crammer et al. 2006, §7", ["crammer-2006"], family="multiclass_pa")
      for name, suffix, label, step in (
          ("pa", "", "PA", "τ = ℓ/(2‖x‖²)"), ("pa-i", "I", "PA-I", "τ = min(C, ℓ/(2‖x‖²))"),
          ("pa-ii", "II", "PA-II", "τ = ℓ/(2‖x‖² + 1/(2C))"))),
    # -- online maximum margin --------------------------------------------------------------
    _entry("e-omm", "omm:EfficientOMM", CLF,
           "Efficient Online Maximum Margin (ℓ2): max-margin on {v₊, v₋, x_t}",
           "Ho-Nguyen et al. 2025, Alg. 1, §5.1", [OMM], family="omm"),
    _entry("ce-omm", "omm:EfficientOMM", CLF,
           "Conservative e-OMM (ρ = 0): updates only on mistakes",
           "Ho-Nguyen et al. 2025, Remark 3.3", [OMM], preset={"rho": 0.0}, family="omm"),
    _entry("n-omm", "omm_variants:NaiveOMM", CLF,
           "Naïve Online Maximum Margin (ℓ2): exact max-margin of all stored points",
           "Ho-Nguyen et al. 2025, Alg. 1 (naïve)", [OMM], family="omm_variants"),
    _entry("e-omm-lp", "omm_variants:EfficientOMMLp", CLF,
           "Efficient Online Maximum Margin for an ℓp norm, p ∈ (1, ∞)",
           "Ho-Nguyen et al. 2025, Alg. 1, §5.1", [OMM], family="omm_variants"),
    _entry("ce-omm-lp", "omm_variants:EfficientOMMLp", CLF,
           "Conservative e-OMM for an ℓp norm (ρ = 0): updates only on mistakes",
           "Ho-Nguyen et al. 2025, Remark 3.3", [OMM], preset={"rho": 0.0}, family="omm_variants"),
    # -- the OMM paper's large-margin baselines ---------------------------------------------
    _entry("romma", "margin:ROMMA", CLF,
           "ROMMA: w ← argmin ‖w‖² s.t. w·w_t ≥ ‖w_t‖², y·w·x ≥ 1, on mistakes",
           "Li & Long 2002", ["li-long-2002", OMM], family="margin"),
    _entry("a-romma", "margin:AggressiveROMMA", CLF,
           "Aggressive ROMMA: ROMMA's update on every round with y·w·x < 1",
           "Li & Long 2002 (aggressive ROMMA)", ["li-long-2002", OMM], family="margin"),
    _entry("alma2", "margin:ALMA2", CLF,
           "ALMA₂(α; B, C): approximate max-margin, normalized x, projection on the unit ball",
           "Gentile 2001, Fig. 1 with p = 2", ["gentile-2001", OMM], family="margin"),
    _entry("pumma", "margin:PUMMA", CLF,
           "PUMMA (p = 2): max-margin on the last positive and negative update points",
           "Ishibashi, Hatano & Takeda 2008", ["ishibashi-2008", OMM], family="margin"),
    # -- regularized and norm-constrained PA, NORMA ------------------------------------------
    _entry("regularized-pa", "regularized:ObjectiveRegularizedPA", CLF,
           "Objective-regularized PA: w ← (w + τy·x)/(1+α), τ = max(0, 1+α−y·w·x)/‖x‖²",
           "Shen & Dietterich 2009, Lemma 3.1", ["shen-dietterich-2009", "crammer-2006"],
           family="regularized"),
    _entry("l2-constrained-pa", "regularized:L2ConstrainedPA", CLF,
           "L2-norm-constrained PA: PA step, then ‖w‖ ≤ β by Z_t",
           "Shen & Dietterich 2009, Lemma 3.2", ["shen-dietterich-2009", "crammer-2006"],
           family="regularized"),
    _entry("l1-constrained-pa", "regularized:L1ConstrainedPA", CLF,
           "L1-norm-constrained PA: exact projection onto {y·w·x ≥ 1, ‖w‖₁ ≤ β}",
           "Shen & Dietterich 2009, problem (3.10)", ["shen-dietterich-2009", "crammer-2006"],
           family="regularized"),
    _entry("norma", "norma:NORMA", CLF,
           "NORMA: w ← (1−η_tλ)w + η_tσ_t·y·x, σ_t = [y(w·x+b) < ρ]",
           "Kivinen et al. 2004, §III-A", ["kivinen-2004", "shen-dietterich-2009"],
           family="regularized"),
    # -- experts ------------------------------------------------------------------------------
    _entry("winnow", "experts:Winnow", CLF,
           "Winnow: ŷ = 1[w·x > N], w_i ← w_i(1+β)^{(y−ŷ)x_i} on x ∈ {0,1}^d",
           "Littlestone 1988; Kitani, Algorithm 4",
           ["littlestone-1988", "kitani-notes", "littlestone-1991"], family="experts"),
    _entry("weighted-majority", "experts:WeightedMajority", CLF,
           "Weighted Majority: ŷ = sign(Σ x_n w_n), w_n ← w_n(1−η) for wrong experts",
           "Littlestone & Warmuth 1994", ["littlestone-warmuth-1994", "kitani-notes"],
           family="experts"),
    _entry("randomized-weighted-majority", "experts:RandomizedWeightedMajority", CLF,
           "Randomized Weighted Majority: follow expert I ~ w/Φ (seeded), WM penalties",
           "Littlestone & Warmuth 1994", ["littlestone-warmuth-1994", "kitani-notes"],
           family="experts"),
    # -- Bayes point ---------------------------------------------------------------------------
    _entry("generalized-perceptron", "bayes_point:GeneralizedPerceptron", CLF,
           "Generalised perceptron: w ← w + η_k·y·x when y(w·x)/‖w‖ ≤ ρ_k",
           "Harrington et al. 2003, Algorithm 1", ["harrington-2003"], family="bayes_point"),
    _entry("obpm", "bayes_point:OnlineBayesPointMachine", CLF,
           "Online Bayes Point Machine: mean of N base learners, each fed x w.p. τ",
           "Harrington et al. 2003, Algorithm 2", ["harrington-2003", "herbrich-2001"],
           family="bayes_point"),
    # -- stochastic gradient and second order --------------------------------------------------
    _entry("sgd", "sgd:SGD", CLF,
           "SGD (hinge, logistic or squared hinge loss; optional L2): "
           "w ← (1−η_tλ)w − η_t ℓ'(w·x+b) x",
           "textbook ch. 31, §31.1", ["textbook-ch31"], family="sgd"),
    _entry("arow", "second_order:AROW", CLF,
           "AROW, full covariance: μ ← μ + y(1−m)Σx/β, Σ ← Σ − ΣxxᵀΣ/β when m < 1",
           "Crammer, Kulesza & Dredze 2009", ["crammer-2009", "textbook-ch31"],
           family="second_order"),
    _entry("arow-diagonal", "second_order:AROW", CLF,
           "AROW, diagonal of the full update: Σᵢᵢ ← Σᵢᵢ − Σᵢᵢ²xᵢ²/β (O(nnz))",
           "textbook ch. 31, §31.3.2 (diagonal Σ)", ["textbook-ch31", "crammer-2009"],
           preset={"covariance": "diagonal"}, family="second_order"),
    _entry("arow-diagonal-precision", "second_order:AROW", CLF,
           "AROW, diagonal precision: Σᵢᵢ ← Σᵢᵢ/(1 + Σᵢᵢxᵢ²/r) (O(nnz))",
           "textbook ch. 31, §31.3.2 (precision)", ["textbook-ch31", "crammer-2009"],
           preset={"covariance": "diagonal-precision"}, family="second_order"),
    # -- kernel learners on a support-set pool (budgets) ------------------------------------------
    _entry("kernel-perceptron", "kernel:KernelPerceptron", CLF,
           "Kernel perceptron: store (x, y) when y·f(x) ≤ 0, f = Σ y_s k(x_s, ·)",
           "Freund & Schapire 1999, §2 (dual form)", ["rosenblatt-1958", "freund-schapire-1999"],
           family="kernel"),
    _entry("kernel-pa", "kernel:KernelPassiveAggressive", CLF,
           "Kernel PA: store x with τy, τ = ℓ/k(x, x)",
           "Crammer et al. 2006, Fig. 1, §3", ["crammer-2006"], family="kernel"),
    _entry("kernel-pa-i", "kernel:KernelPassiveAggressiveI", CLF,
           "Kernel PA-I: τ = min(C, ℓ/k(x, x))",
           "Crammer et al. 2006, Fig. 1, §3", ["crammer-2006"], family="kernel"),
    _entry("kernel-pa-ii", "kernel:KernelPassiveAggressiveII", CLF,
           "Kernel PA-II: τ = ℓ/(k(x, x) + 1/(2C))",
           "Crammer et al. 2006, Fig. 1, §3", ["crammer-2006"], family="kernel"),
    _entry("kernel-regularized-pa", "kernel_regularized:KernelRegularizedPA", CLF,
           "Regularized kernel PA: f ← (f + τy·k(x,·))/(1+α); budget: oldest removed",
           "Shen & Dietterich 2009, (3.1), §5", ["shen-dietterich-2009"], family="kernel"),
    _entry("kernel-l2-constrained-pa", "kernel_regularized:KernelL2ConstrainedPA", CLF,
           "L2-constrained kernel PA (Lemma 3.2): f ← (f + τy·k(x,·))/Z, ‖f‖ ≤ β",
           "Shen & Dietterich 2009, L. 3.2, §5", ["shen-dietterich-2009"], family="kernel"),
    _entry("forgetron", "kernel_regularized:Forgetron", CLF,
           "Self-tuned Forgetron: budget B, shrink by φ and remove the oldest",
           "Dekel et al. 2008, §4", ["dekel-2008"], family="kernel"),
    _entry("randomized-budget-perceptron", "kernel:RandomizedBudgetPerceptron", CLF,
           "Randomized budget perceptron: at B rows, a mistake removes a random one",
           "Cavallanti et al. 2007, §3", ["cavallanti-2007"], family="kernel"),
    _entry("stoptron", "kernel:Stoptron", CLF,
           "Stoptron: the kernel perceptron that stops updating at B rows",
           "Orabona et al. 2009, §6", ["orabona-2009"], family="kernel"),
    _entry("kernel-norma", "kernel_regularized:KernelNORMA", CLF,
           "Kernel NORMA: f ← (1−η_tλ)f + η_tσ_t y·k(x,·); truncation τ / budget",
           "Kivinen et al. 2004, §III-A", ["kivinen-2004"], family="kernel"),
    _entry("projectron", "kernel_extra:Projectron", CLF,
           "Projectron: on a mistake project k(x,·) on the pool's span if ‖δ‖ ≤ η, else store x",
           "Orabona et al. 2009, §3, Fig. 1", ["orabona-2009", "orabona-dogma-2009"],
           family="kernel_extra"),
    _entry("projectron++", "kernel_extra:ProjectronPlusPlus", CLF,
           "Projectron++: the Projectron plus projected updates on margin errors",
           "Orabona et al. 2009, §4, Fig. 2", ["orabona-2009", "orabona-dogma-2009"],
           family="kernel_extra"),
    _entry("budget-pa", "kernel_extra:BudgetPA", CLF,
           "Budgeted PA (BPA-S): at B rows, replace the row whose removal costs least",
           "Wang & Vucetic 2010, §3 (BPA-S)", ["wang-vucetic-2010", "crammer-2006"],
           family="kernel_extra"),
    _entry("kernel-obpm", "kernel_extra:KernelOBPM", CLF,
           "Kernel OBPM: N kernel perceptrons on Bernoulli(τ) sub-streams, one shared pool",
           "Harrington et al. 2003, Alg. 2, §3", ["harrington-2003"], family="kernel_extra"),
    _entry("fogd", "feature_map:FOGD", CLF,
           "FOGD: random Fourier features (RBFSampler), then hinge-loss OGD",
           "Lu et al. 2016, Algorithm 1", ["lu-2016"], family="feature_map"),
    _entry("nogd", "nystrom:NOGD", CLF,
           "NOGD: kernel OGD until B rows, then hinge OGD on their Nyström map",
           "Lu et al. 2016, Algorithm 2", ["lu-2016"], family="nystrom"),
    # -- regression ------------------------------------------------------------------------------
    _entry("pa-regression", "regression:PassiveAggressiveRegression", REG,
           "PA regression (ε-insensitive): τ = ℓ_ε/‖x‖²",
           "Crammer et al. 2006, §4", ["crammer-2006"], family="regression"),
    _entry("pa-i-regression", "regression:PassiveAggressiveIRegression", REG,
           "PA-I regression (ε-insensitive): τ = min(C, ℓ_ε/‖x‖²)",
           "Crammer et al. 2006, §4", ["crammer-2006"], family="regression"),
    _entry("pa-ii-regression", "regression:PassiveAggressiveIIRegression", REG,
           "PA-II regression (ε-insensitive): τ = ℓ_ε/(‖x‖² + 1/(2C))",
           "Crammer et al. 2006, §4", ["crammer-2006"], family="regression"),
    _entry("pa-l2-regression", "regression:PassiveAggressiveL2Regression", REG,
           "PA regression, ℓ2 loss: θ ← θ + r/(‖x‖² + λ)·x",
           "textbook ch. 31, §31.2.2 (ℓ2 loss)", ["textbook-ch31"], family="regression"),
    _entry("pa-l1-regression", "regression:PassiveAggressiveL1Regression", REG,
           "PA regression, ℓ1 loss: θ ← θ + sign(r)·min(1/λ, |r|/‖x‖²)·x",
           "textbook ch. 31, §31.2.2 (ℓ1 loss)", ["textbook-ch31"], family="regression"),
    _entry("arow-regression", "second_order:AROWRegression", REG,
           "AROW regression (recursive least squares): μ ← μ + (y − μ·x)Σx/β, "
           "Σ ← Σ − ΣxxᵀΣ/β",
           "textbook ch. 31, §31.3.3", ["textbook-ch31", "crammer-2009"], family="second_order"),
    _entry("sgd-regression", "sgd:SGDRegression", REG,
           "SGD regression, squared loss (optional L2): w ← (1−η_tλ)w + η_t (y − w·x − b) x",
           "textbook ch. 31, §31.1", ["textbook-ch31"], family="sgd"),
)

#: The learner classes, each once, in catalogue order (presets share their class).
LEARNER_CLASSES = list(dict.fromkeys(entry.class_name for entry in CATALOGUE))

#: class name -> the module that defines it (what ``olc.<Class>`` imports on first use).
CLASS_MODULES = {entry.class_name: entry.module for entry in CATALOGUE}
