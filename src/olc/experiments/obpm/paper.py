"""The published numbers of Harrington, Herbrich, Kivinen, Platt & Williamson, "Online Bayes
Point Machines" (PAKDD 2003), §4 — shown only in columns marked "[paper]", never used to
compute anything of ours. Errors are in percent, as printed.

Table 2 in our copy of the paper's text lists ALMA after epochs 1 and 2 only (its epoch-3
row is absent); :data:`TABLE_2` has no entry there and the table says so.
"""

CITATION = ("E. Harrington, R. Herbrich, J. Kivinen, J. C. Platt and R. C. Williamson, "
            "\"Online Bayes Point Machines\", Advances in Knowledge Discovery and Data Mining "
            "(PAKDD 2003), LNAI 2637, §4.")

#: Table 1: noise e -> algorithm -> (mean %, 95 % half-width %, chosen parameters).
TABLE_1 = {
    0.0: {"Perceptron": (2.03, 0.32, None),
          "ALMA": (0.07, 0.04, {"B": 1.11, "C": 0.71}),
          "OBPM": (0.00, 0.00, {"tau": 0.35, "N": 100})},
    0.01: {"Perceptron": (3.35, 0.44, None),
           "ALMA": (0.14, 0.07, {"B": 0.83, "C": 0.71}),
           "OBPM": (0.10, 0.06, {"tau": 0.50, "N": 100})},
    0.1: {"Perceptron": (12.96, 1.0, None),
          "ALMA": (0.76, 0.13, {"B": 1.25, "C": 0.71}),
          "OBPM": (0.96, 0.13, {"tau": 0.15, "N": 100})},
}

#: §4.1: total updates of all the OBPM members for τ = 0.3, e = 0, by N.
TOTAL_UPDATES_TAU_03 = {25: 1334, 100: 5306}
#: §4.1 / Fig. 1(b): margins γ_z(w̃_T) reached on the toy data.
MARGIN_OBPM, MARGIN_ALMA = 0.02, 0.006

#: Table 2: (data set, algorithm, epoch) -> (mean %, 95 % half-width % or None).
#: C. Elegans has no interval in the paper.
TABLE_2 = {
    ("c-elegans", "Perceptron", 1): (3.33, None), ("c-elegans", "Perceptron", 2): (2.99, None),
    ("c-elegans", "Perceptron", 3): (2.93, None),
    ("a9a", "Perceptron", 1): (19.59, 1.54), ("a9a", "Perceptron", 2): (18.81, 0.96),
    ("a9a", "Perceptron", 3): (21.21, 2.21),
    ("w8a", "Perceptron", 1): (1.84, 0.12), ("w8a", "Perceptron", 2): (2.12, 1.03),
    ("w8a", "Perceptron", 3): (1.72, 0.18),
    ("c-elegans", "ALMA", 1): (1.95, None), ("c-elegans", "ALMA", 2): (1.92, None),
    ("a9a", "ALMA", 1): (15.88, 0.19), ("a9a", "ALMA", 2): (15.35, 0.13),
    ("w8a", "ALMA", 1): (1.36, 0.03), ("w8a", "ALMA", 2): (1.29, 0.03),
    ("c-elegans", "OBPM", 1): (1.94, None), ("c-elegans", "OBPM", 2): (1.86, None),
    ("c-elegans", "OBPM", 3): (1.79, None),
    ("a9a", "OBPM", 1): (15.29, 0.15), ("a9a", "OBPM", 2): (15.24, 0.19),
    ("a9a", "OBPM", 3): (15.17, 0.14),
    ("w8a", "OBPM", 1): (1.42, 0.04), ("w8a", "OBPM", 2): (1.36, 0.04),
    ("w8a", "OBPM", 3): (1.31, 0.03),
}
#: Table 2's parameters per data set: ALMA (B, C), OBPM (τ, N).
TABLE_2_ALMA = {"c-elegans": (3.33, 0.70), "a9a": (20.0, 0.70), "w8a": (0.625, 1.41)}
TABLE_2_OBPM = {"c-elegans": (0.2, 200), "a9a": (0.01, 200), "w8a": (0.3, 200)}
#: §4.3: the soft-margin linear SVM's test error (%).
SVM = {"a9a": 15.05, "w8a": 1.25, "c-elegans": 1.58}
#: §4.3: the paper's data sizes (ours come from the files).
SIZES = {"a9a": {"train": 32562, "test": 16282}, "w8a": {"train": 49749, "test": 21489},
         "c-elegans": {"train": 100_000, "test": 10_000}}
C_ELEGANS_UNAVAILABLE = (
    "not obtainable: the C. Elegans splice-site data (Sonnenburg 2002, the paper's ref. 10; "
    "6125 dimensions, 100,000 training and 10,000 test examples, provided to the authors "
    "by G. Rätsch, A. Smola and S. Sonnenburg) is not published in this form")
