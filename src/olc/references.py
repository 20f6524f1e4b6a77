"""The bibliography: the documents olc implements and every algorithm's original paper.

One entry per key; the algorithm catalogue (``olc.learners.registry.catalogue``) cites these keys,
``olc algorithms NAME`` prints them, and ``docs/references.md`` is generated from this module
(``python -m olc.references > docs/references.md``; a test checks the file is current).
Pure Python: importing it costs nothing.
"""
from dataclasses import dataclass


@dataclass(frozen=True)
class Reference:
    key: str
    short: str  # how the code cites it: authors, year
    text: str   # the full bibliographic entry
    note: str = ""  # what olc takes from it, or what the supplied document says of itself


#: The five documents olc's specification is built from (their own title pages).
SOURCES = (
    Reference(
        "shen-dietterich-2009", "Shen & Dietterich 2009",
        "Jianqiang Shen and Thomas G. Dietterich. A Family of Large Margin Linear Classifiers "
        "and Its Application in Dynamic Environments. Statistical Analysis and Data Mining "
        "2(5–6), 2009. (School of EECS, Oregon State University.)",
        "The regularized PA learners: problem (3.1) and Lemma 3.1 (objective-regularized PA), "
        "problems (3.9)/(3.10) and Lemma 3.2 (ℓ2/ℓ1 norm-constrained PA); NORMA as the "
        "baseline of §4 (its reference [12])."),
    Reference(
        "kitani-notes", "Kitani, lecture notes",
        "Kris Kitani (lecturer), Daphne Chen (scribe). Online Linear Classification. Lecture "
        "notes; the notes name no course, institution or date.",
        "Algorithm 1 (Weighted Majority, bound Eq. 1), Algorithm 2 (Randomized Weighted "
        "Majority, Eq. 2), Algorithm 3 (Perceptron, mistake-only update), Algorithm 4 "
        "(Winnow, mistake bound Eq. 42)."),
    Reference(
        "ho-nguyen-2025", "Ho-Nguyen et al. 2025",
        "Nam Ho-Nguyen, Fatma Kılınç-Karzan, Ellie Nguyen and Lingqing Shen. Efficient Online "
        "Large-Margin Classification via Dual Certificates. arXiv:2509.19670 [math.OC], 2025. "
        "(The University of Sydney; Carnegie Mellon University.)",
        "The Online Maximum Margin algorithms (“OMM paper”): Algorithm 1 (naïve and efficient "
        "implementations), Lemma 3.1, Remark 3.3, §5.1 (closed form, ℓp norms), Example 5.1 "
        "(perceptron vs e-OMM), §6 and App. B (the Adult experiments; the baselines' bias "
        "handling and tuning, App. B.3)."),
    Reference(
        "harrington-2003", "Harrington et al. 2003",
        "Edward Harrington, Ralf Herbrich, Jyrki Kivinen, John C. Platt and Robert C. "
        "Williamson. Online Bayes Point Machines. In Advances in Knowledge Discovery and Data "
        "Mining (PAKDD 2003), Lecture Notes in Artificial Intelligence 2637, pp. 241–252. "
        "Springer, 2003. doi:10.1007/3-540-36175-8_24.",
        "Algorithm 1 (generalized perceptron, ρ_k and η_k schedules of §2), Algorithm 2 "
        "(Online Bayes Point Machine)."),
    Reference(
        "textbook-ch31", "textbook ch. 31",
        "A textbook chapter on online learning, numbered 31: §31.1 Stochastic Gradient "
        "Descent, §31.2 Passive-Aggressive Learning (§31.2.1 classification, §31.2.2 "
        "regression), §31.3 Adaptive Regularization of Weight Vectors (AROW: §31.3.2 "
        "classification, §31.3.3 regression), pp. 355–362 by its contents list; equations "
        "(31.1)–(31.5), Figs. 31.1–31.9 (MATLAB code). The supplied extract names neither the "
        "book nor its author.",
        "SGD (§31.1), PA-II as θ ← θ + y·max(0, 1 − m)/(‖x‖² + λ)·x (§31.2.1), ℓ2/ℓ1-loss PA "
        "regression (§31.2.2), AROW classification (§31.3.2, Fig. 31.6) and regression "
        "(recursive least squares, §31.3.3)."),
)

#: The original paper of each algorithm in the catalogue.
PAPERS = (
    Reference(
        "rosenblatt-1958", "Rosenblatt 1958",
        "Frank Rosenblatt. The perceptron: a probabilistic model for information storage and "
        "organization in the brain. Psychological Review 65(6):386–408, 1958."),
    Reference(
        "littlestone-1988", "Littlestone 1988",
        "Nick Littlestone. Learning quickly when irrelevant attributes abound: a new "
        "linear-threshold algorithm. Machine Learning 2(4):285–318, 1988.",
        "Winnow."),
    Reference(
        "littlestone-1991", "Littlestone 1991",
        "Nick Littlestone. Redundant noisy attributes, attribute errors, and linear-threshold "
        "learning using Winnow. In Proceedings of the 4th Annual Workshop on Computational "
        "Learning Theory (COLT 1991), pp. 147–156. ACM, 1991.",
        "Winnow's analysis as cited by Kitani's notes (their reference [3])."),
    Reference(
        "littlestone-warmuth-1994", "Littlestone & Warmuth 1994",
        "Nick Littlestone and Manfred K. Warmuth. The weighted majority algorithm. Information "
        "and Computation 108(2):212–261, 1994.",
        "Weighted Majority and Randomized Weighted Majority."),
    Reference(
        "gentile-2001", "Gentile 2001",
        "Claudio Gentile. A new approximate maximal margin classification algorithm. Journal "
        "of Machine Learning Research 2:213–242, 2001.",
        "ALMA_p (olc: p = 2, Fig. 1)."),
    Reference(
        "herbrich-2001", "Herbrich et al. 2001",
        "Ralf Herbrich, Thore Graepel and Colin Campbell. Bayes point machines. Journal of "
        "Machine Learning Research 1:245–279, 2001.",
        "The Bayes point that OBPM approximates online."),
    Reference(
        "li-long-2002", "Li & Long 2002",
        "Yi Li and Philip M. Long. The relaxed online maximum margin algorithm. Machine "
        "Learning 46(1–3):361–387, 2002.",
        "ROMMA and aggressive ROMMA; the −D̄ bias coordinate."),
    Reference(
        "kivinen-2004", "Kivinen, Smola & Williamson 2004",
        "Jyrki Kivinen, Alexander J. Smola and Robert C. Williamson. Online learning with "
        "kernels. IEEE Transactions on Signal Processing 52(8):2165–2176, 2004. "
        "doi:10.1109/TSP.2004.830991.",
        "NORMA (olc: norma, the linear classification version of §III-A, fixed ρ; "
        "kernel-norma, the kernel version with truncation)."),
    Reference(
        "crammer-2006", "Crammer et al. 2006",
        "Koby Crammer, Ofer Dekel, Joseph Keshet, Shai Shalev-Shwartz and Yoram Singer. Online "
        "passive-aggressive algorithms. Journal of Machine Learning Research 7:551–585, 2006.",
        "PA, PA-I, PA-II (the step sizes of Eq. 6), their regression versions (§4) and the "
        "multiclass versions with K prototypes (§7)."),
    Reference(
        "ishibashi-2008", "Ishibashi, Hatano & Takeda 2008",
        "Kosuke Ishibashi, Kohei Hatano and Masayuki Takeda. Online learning of maximum p-norm "
        "margin classifiers with bias. In Proceedings of the 21st Annual Conference on "
        "Learning Theory (COLT 2008), pp. 69–80, 2008.",
        "PUMMA (olc: p = 2)."),
    Reference(
        "crammer-2009", "Crammer, Kulesza & Dredze 2009",
        "Koby Crammer, Alex Kulesza and Mark Dredze. Adaptive regularization of weight "
        "vectors. In Advances in Neural Information Processing Systems 22 (NIPS 2009), "
        "pp. 414–422, 2009.",
        "AROW (Fig. 1), with full and diagonal covariance."),
    Reference(
        "freund-schapire-1999", "Freund & Schapire 1999",
        "Yoav Freund and Robert E. Schapire. Large margin classification using the perceptron "
        "algorithm. Machine Learning 37(3):277–296, 1999. doi:10.1023/A:1007662407062.",
        "The voted perceptron and its averaged form: the origin of ``average=`` "
        "(``olc.learners._framework.averaging``)."),
    Reference(
        "collins-2002", "Collins 2002",
        "Michael Collins. Discriminative training methods for hidden Markov models: theory and "
        "experiments with perceptron algorithms. In Proceedings of the 2002 Conference on "
        "Empirical Methods in Natural Language Processing (EMNLP 2002), pp. 1–8, 2002.",
        "The averaged perceptron in practice; ``average=``."),
    Reference(
        "daume-2006", "Daumé III 2006",
        "Hal Daumé III. Practical Structured Learning Techniques for Natural Language "
        "Processing. PhD thesis, University of Southern California, 2006.",
        "The lazy sum that keeps the averaged perceptron's weights in O(nnz(x)) per example "
        "(``olc._compiled.kernels.averaging``)."),
    Reference(
        "bottou-2012", "Bottou 2012",
        "Léon Bottou. Stochastic gradient descent tricks. In Neural Networks: Tricks of the "
        "Trade, 2nd edition, Lecture Notes in Computer Science 7700, pp. 421–436. Springer, "
        "2012. doi:10.1007/978-3-642-35289-8_25.",
        "Averaged SGD on sparse data with a scaled weight vector, the trick scikit-learn's "
        "``WeightVector.add_average`` cites and olc's averaging follows."),
    Reference(
        "tsuruoka-2009", "Tsuruoka, Tsujii & Ananiadou 2009",
        "Yoshimasa Tsuruoka, Jun'ichi Tsujii and Sophia Ananiadou. Stochastic gradient descent "
        "training for L1-regularized log-linear models with cumulative penalty. In Proceedings "
        "of the Joint Conference of the 47th Annual Meeting of the ACL and the 4th IJCNLP "
        "(ACL-IJCNLP 2009), pp. 477–485, 2009.",
        "The cumulative L1 penalty (§3; the procedures UPDATEWEIGHTS and APPLYPENALTY of its "
        "pseudo-code): the L1 part of "
        "``olc.sklearn.Perceptron(penalty=\"l1\"/\"elasticnet\")`` "
        "(``olc._compiled.rules.sgd_penalty``), as scikit-learn's SGD applies it."),
    Reference(
        "sklearn-sgd", "scikit-learn SGD docs",
        "scikit-learn developers. Stochastic Gradient Descent (user guide §1.5: mathematical "
        "formulation, implementation details) and ``sklearn/linear_model/_sgd_fast.pyx.tp`` "
        "(``_plain_sgd``), scikit-learn 1.7–1.9. https://scikit-learn.org/stable/modules/sgd.html",
        "The semantics of ``olc.sklearn``'s drop-ins: the penalised perceptron "
        "(``SGDClassifier(loss=\"perceptron\", learning_rate=\"constant\")``), its weight "
        "scale, per-row weights, intercept decay and epoch objective."),
    Reference(
        "dekel-2008", "Dekel, Shalev-Shwartz & Singer 2008",
        "Ofer Dekel, Shai Shalev-Shwartz and Yoram Singer. The Forgetron: a kernel-based "
        "perceptron on a budget. SIAM Journal on Computing 37(5):1342–1372, 2008. "
        "doi:10.1137/060666998.",
        "The self-tuned Forgetron (olc: forgetron)."),
    Reference(
        "cavallanti-2007", "Cavallanti, Cesa-Bianchi & Gentile 2007",
        "Giovanni Cavallanti, Nicolò Cesa-Bianchi and Claudio Gentile. Tracking the best "
        "hyperplane with a simple budget Perceptron. Machine Learning 69(2–3):143–167, 2007. "
        "doi:10.1007/s10994-007-5003-0.",
        "The randomized budget perceptron (olc: randomized-budget-perceptron)."),
    Reference(
        "orabona-2009", "Orabona, Keshet & Caputo 2009",
        "Francesco Orabona, Joseph Keshet and Barbara Caputo. Bounded kernel-based online "
        "learning. Journal of Machine Learning Research 10:2643–2666, 2009.",
        "The Stoptron baseline (olc: stoptron); the Projectron and Projectron++ (olc: "
        "projectron, projectron++)."),
    Reference(
        "orabona-dogma-2009", "Orabona 2009 (DOGMA)",
        "Francesco Orabona. DOGMA: a MATLAB toolbox for online learning, 2009 "
        "(k_projectron_train.m, k_projectron2_train.m).",
        "The Projectron's threshold_on=\"squared_norm\": the authors' code compares "
        "‖δ_t‖² with η (olc: projectron, projectron++)."),
    Reference(
        "wang-vucetic-2010", "Wang & Vucetic 2010",
        "Zhuang Wang and Slobodan Vucetic. Online passive-aggressive algorithms on a budget. "
        "Proceedings of the 13th International Conference on Artificial Intelligence and "
        "Statistics (AISTATS), JMLR W&CP 9:908–915, 2010.",
        "The budgeted PA, simple variant BPA-S (olc: budget-pa)."),
    Reference(
        "lu-2016", "Lu, Hoi, Wang, Zhao & Liu 2016",
        "Jing Lu, Steven C. H. Hoi, Jialei Wang, Peilin Zhao and Zhi-Yong Liu. Large scale "
        "online kernel learning. Journal of Machine Learning Research 17(47):1–43, 2016.",
        "Fourier and Nyström Online Gradient Descent (olc: fogd, nogd)."),
)

REFERENCES = {ref.key: ref for ref in SOURCES + PAPERS}


class UnknownReferenceError(KeyError):
    def __str__(self):
        return str(self.args[0])


def reference(key):
    """The :class:`Reference` of ``key`` (an error naming the known keys otherwise)."""
    try:
        return REFERENCES[key]
    except KeyError:
        raise UnknownReferenceError(f"unknown reference {key!r}; known: "
                                    f"{', '.join(sorted(REFERENCES))}") from None


def render_markdown(entries=None):
    """``docs/references.md``: both lists, each reference with the learners citing it."""
    if entries is None:
        from .learners.registry.catalogue import CATALOGUE as entries
    cited_by = {}
    for entry in entries:
        for key in entry.references:
            cited_by.setdefault(key, []).append(entry.name)
    lines = [
        "# References",
        "",
        "<!-- Generated from src/olc/references.py by `python -m olc.references > "
        "docs/references.md`; edit the module, not this file. -->",
        "",
        "Code, docstrings and `olc algorithms` cite these works by author, year and "
        "section/equation/algorithm (e.g. “Shen & Dietterich 2009, Lemma 3.2”); the key in "
        "brackets is the one the algorithm catalogue uses (`olc algorithms NAME` prints the "
        "full entries of a learner).",
        "",
        "## The five source documents",
        "",
        "The specification of olc: the documents its learners and experiments reproduce. For "
        "the lecture notes and the textbook chapter, the entry says what the documents say of "
        "themselves.",
        "",
    ]
    for title, refs in (("", SOURCES),
                        ("## Original papers of the algorithms", PAPERS)):
        if title:
            lines += [title, ""]
        for ref in refs:
            lines += [f"- **[{ref.key}]** {ref.text}", ""]
            if ref.note:
                lines += [f"  *In olc:* {ref.note}", ""]
            if ref.key in cited_by:
                names = ", ".join(f"`{n}`" for n in cited_by[ref.key])
                lines += [f"  *Cited by:* {names}.", ""]
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - regenerates docs/references.md
    print(render_markdown(), end="")
