"""The OMM paper's published numbers (Ho-Nguyen et al. 2025: Tables 2, 3 and 4 of §6 and
App. B.4), for comparison columns only: nothing here is used to compute a result.

Transcription. The text extraction of the paper that olc works from lost every dash ("—":
final margin γ̄ not positive, or τ undefined), so each row is a run of 4–8 numbers for two
blocks (b* = 0, then b* ≠ 0) of four cells m, γ̄, τ, time. The cells were restored by their
types — m and τ are integers, γ̄ and the time are decimals, and the time is always present,
so each block reads m [γ̄] [τ] time — which fixes every row but nine. Those nine read either
"m time | m γ̄ τ time" or "m γ̄ τ time | m time", and were decided by two facts the paper's
own numbers obey: (a) a conservative learner (ROMMA, Perceptron) cannot err after its τ (its
classifier is then correct on every point), so m ≤ τ; (b) a five-pass run begins with the
one-pass run (Table 4 repeats Table 3's τ wherever it is unambiguous), so a τ below n =
35,508 — reached in the first pass — is in both tables or in neither, with the same value:
  Table 3 θ=0 ROMMA, a-ROMMA; Table 4 θ=0 ROMMA; θ=0.25 a-ROMMA, Perceptron; θ=0.5
  a-ROMMA: the first block is the full one (the alternative breaks (a) or (b));
  Table 3 θ=0.5 and θ=1 Perceptron; Table 4 θ=0.75 Perceptron: the second block is the
  full one (the alternative breaks (a); Table 4 θ=0.5 and θ=1 repeat Table 3's 56/24953 and
  46/20579 for b* ≠ 0).
``tests/experiments/test_omm_adult.py`` checks that the cells, read left to right without
the dashes, give back that text's lines.

Table 2 (θ = 0, one pass) is Table 3's θ = 0 block (the paper prints the same numbers).
"""

# (θ, algorithm) → ((m, γ̄, τ, seconds) for b* = 0, (m, γ̄, τ, seconds) for b* = −0.2848);
# None = the paper's dash. Algorithm names are olc's registry names (ALMA = "alma2").
TABLE_3 = {  # one pass over the data set (Ho-Nguyen et al. 2025, Table 3, App. B.4)
    (0.0, "n-omm"): ((4, 1.00, 70, 76.56), (4, 1.00, 70, 74.25)),
    (0.0, "ce-omm"): ((21, 0.05, 16808, 0.10), (21, 0.05, 16808, 0.11)),
    (0.0, "e-omm"): ((6, 0.84, 534, 0.11), (6, 0.84, 534, 0.12)),
    (0.0, "romma"): ((38, 0.16, 28065, 0.09), (4114, None, None, 0.22)),
    (0.0, "a-romma"): ((11, 0.73, 265, 0.15), (2643, None, None, 0.21)),
    (0.0, "pumma"): ((9, 0.68, 584, 0.08), (9, 0.68, 584, 0.08)),
    (0.0, "perceptron"): ((59, None, None, 0.07), (52, None, None, 0.07)),
    (0.0, "alma2"): ((53, None, None, 0.07), (174, None, None, 0.07)),
    (0.25, "n-omm"): ((4, 1.00, 70, 75.07), (4, 1.00, 70, 75.86)),
    (0.25, "ce-omm"): ((21, 0.05, 16808, 0.11), (21, 0.05, 16808, 0.11)),
    (0.25, "e-omm"): ((6, 0.84, 534, 0.12), (6, 0.84, 534, 0.12)),
    (0.25, "romma"): ((529, None, None, 0.09), (5600, None, None, 0.30)),
    (0.25, "a-romma"): ((220, None, 12282, 0.16), (3816, None, None, 0.22)),
    (0.25, "pumma"): ((9, 0.68, 584, 0.08), (9, 0.68, 584, 0.08)),
    (0.25, "perceptron"): ((70, None, None, 0.07), (76, None, None, 0.07)),
    (0.25, "alma2"): ((689, None, 23099, 0.08), (1961, None, None, 0.10)),
    (0.5, "n-omm"): ((4, 1.00, 70, 75.05), (4, 1.00, 70, 75.57)),
    (0.5, "ce-omm"): ((21, 0.05, 16808, 0.10), (21, 0.05, 16808, 0.11)),
    (0.5, "e-omm"): ((6, 0.84, 534, 0.12), (6, 0.84, 534, 0.13)),
    (0.5, "romma"): ((1571, None, None, 0.12), (6693, None, None, 0.35)),
    (0.5, "a-romma"): ((788, None, None, 0.19), (5096, None, None, 0.21)),
    (0.5, "pumma"): ((9, 0.68, 584, 0.08), (9, 0.68, 584, 0.09)),
    (0.5, "perceptron"): ((66, None, None, 0.07), (56, 0.03, 24953, 0.07)),
    (0.5, "alma2"): ((2489, None, None, 0.10), (5448, None, None, 0.12)),
    (0.75, "n-omm"): ((4, 1.00, 70, 74.63), (4, 1.00, 70, 75.74)),
    (0.75, "ce-omm"): ((21, 0.05, 16808, 0.11), (21, 0.05, 16808, 0.11)),
    (0.75, "e-omm"): ((6, 0.84, 534, 0.12), (6, 0.84, 534, 0.12)),
    (0.75, "romma"): ((2887, None, None, 0.17), (8099, None, None, 0.43)),
    (0.75, "a-romma"): ((1695, None, None, 0.17), (6232, None, None, 0.22)),
    (0.75, "pumma"): ((9, 0.68, 584, 0.08), (9, 0.68, 584, 0.08)),
    (0.75, "perceptron"): ((112, None, None, 0.07), (74, None, None, 0.07)),
    (0.75, "alma2"): ((4633, None, None, 0.11), (8602, None, None, 0.13)),
    (1.0, "n-omm"): ((4, 1.00, 70, 74.64), (4, 1.00, 70, 76.27)),
    (1.0, "ce-omm"): ((21, 0.05, 16808, 0.11), (21, 0.05, 16808, 0.11)),
    (1.0, "e-omm"): ((6, 0.84, 534, 0.12), (6, 0.84, 534, 0.12)),
    (1.0, "romma"): ((4132, None, None, 0.22), (9213, None, None, 0.50)),
    (1.0, "a-romma"): ((2728, None, None, 0.18), (7413, None, None, 0.22)),
    (1.0, "pumma"): ((9, 0.68, 584, 0.08), (9, 0.68, 584, 0.08)),
    (1.0, "perceptron"): ((80, None, None, 0.07), (46, 0.05, 20579, 0.07)),
    (1.0, "alma2"): ((6636, None, None, 0.11), (10946, None, None, 0.13)),
}

TABLE_4 = {  # five passes, n-OMM one pass (Ho-Nguyen et al. 2025, Table 4, App. B.4)
    (0.0, "n-omm"): ((4, 1.00, 70, 76.56), (4, 1.00, 70, 74.25)),
    (0.0, "ce-omm"): ((21, 0.05, 16808, 0.20), (21, 0.05, 16808, 0.22)),
    (0.0, "e-omm"): ((6, 0.93, 534, 0.55), (6, 0.93, 534, 0.59)),
    (0.0, "romma"): ((38, 0.16, 28065, 0.18), (6637, None, None, 1.17)),
    (0.0, "a-romma"): ((11, 0.89, 265, 0.80), (3095, None, 150864, 1.06)),
    (0.0, "pumma"): ((9, 0.88, 584, 0.37), (9, 0.88, 584, 0.40)),
    (0.0, "perceptron"): ((69, 0.06, 64028, 0.21), (78, 0.01, 170119, 0.38)),
    (0.0, "alma2"): ((79, None, None, 0.35), (329, None, None, 0.35)),
    (0.25, "n-omm"): ((4, 1.00, 70, 75.07), (4, 1.00, 70, 75.86)),
    (0.25, "ce-omm"): ((21, 0.05, 16808, 0.22), (21, 0.05, 16808, 0.22)),
    (0.25, "e-omm"): ((6, 0.93, 534, 0.58), (6, 0.93, 534, 0.60)),
    (0.25, "romma"): ((577, None, None, 0.50), (9531, None, None, 1.55)),
    (0.25, "a-romma"): ((221, 0.56, 12282, 0.85), (4851, None, None, 1.10)),
    (0.25, "pumma"): ((9, 0.88, 584, 0.39), (9, 0.88, 584, 0.41)),
    (0.25, "perceptron"): ((72, 0.16, 60814, 0.22), (122, None, None, 0.39)),
    (0.25, "alma2"): ((695, 0.64, 23099, 0.36), (2142, 0.36, 45381, 0.41)),
    (0.5, "n-omm"): ((4, 1.00, 70, 75.05), (4, 1.00, 70, 75.57)),
    (0.5, "ce-omm"): ((21, 0.05, 16808, 0.22), (21, 0.05, 16808, 0.23)),
    (0.5, "e-omm"): ((6, 0.93, 534, 0.57), (6, 0.93, 534, 0.62)),
    (0.5, "romma"): ((2039, None, None, 0.62), (13052, None, None, 2.15)),
    (0.5, "a-romma"): ((807, 0.07, 39063, 0.84), (7292, None, None, 1.09)),
    (0.5, "pumma"): ((9, 0.88, 584, 0.38), (9, 0.88, 584, 0.41)),
    (0.5, "perceptron"): ((70, 0.00, 47354, 0.22), (56, 0.03, 24953, 0.15)),
    (0.5, "alma2"): ((2685, 0.28, 57793, 0.39), (7999, 0.01, 135655, 0.47)),
    (0.75, "n-omm"): ((4, 1.00, 70, 74.63), (4, 1.00, 70, 75.74)),
    (0.75, "ce-omm"): ((21, 0.05, 16808, 0.22), (21, 0.05, 16808, 0.23)),
    (0.75, "e-omm"): ((6, 0.93, 534, 0.58), (6, 0.93, 534, 0.62)),
    (0.75, "romma"): ((4140, None, None, 0.83), (16850, None, None, 2.85)),
    (0.75, "a-romma"): ((1829, None, 89998, 0.91), (10124, None, None, 1.09)),
    (0.75, "pumma"): ((9, 0.88, 584, 0.39), (9, 0.88, 584, 0.40)),
    (0.75, "perceptron"): ((138, None, None, 0.37), (82, 0.01, 52263, 0.23)),
    (0.75, "alma2"): ((5926, None, None, 0.43), (14866, None, None, 0.49)),
    (1.0, "n-omm"): ((4, 1.00, 70, 74.64), (4, 1.00, 70, 76.27)),
    (1.0, "ce-omm"): ((21, 0.05, 16808, 0.22), (21, 0.05, 16808, 0.22)),
    (1.0, "e-omm"): ((6, 0.93, 534, 0.59), (6, 0.93, 534, 0.59)),
    (1.0, "romma"): ((6653, None, None, 1.19), (20737, None, None, 3.58)),
    (1.0, "a-romma"): ((3176, None, 160346, 0.92), (13393, None, None, 1.13)),
    (1.0, "pumma"): ((9, 0.88, 584, 0.40), (9, 0.88, 584, 0.39)),
    (1.0, "perceptron"): ((84, 0.09, 45807, 0.22), (46, 0.05, 20579, 0.15)),
    (1.0, "alma2"): ((9812, None, None, 0.48), (23840, None, None, 0.53)),
}

# D̄/D of each variant, the row headers of Tables 2–4: θ → (b* = 0, b* ≠ 0).
D_BAR_OVER_D = {0.0: (0.9666, 0.9658), 0.25: (1.2082, 1.2072), 0.5: (1.4498, 1.4486),
                0.75: (1.6914, 1.6901), 1.0: (1.9331, 1.9315)}

B_STAR = -0.2848   # the max-margin classifier's bias on the paper's data (Tables 2–4)
D = 220.43         # §6: "as reference, D = 220.43 in our dataset"
N_POINTS = 35508   # App. B.1 / §6
POSITIVE_FRACTION = 0.2711
DIMENSION = 96

BIAS_INDEX = {"zero": 0, "original": 1}


def paper_cell(passes, theta, bias, algorithm):
    """The paper's (m, γ̄, τ, seconds) of a run, or None when the paper has no such run
    (passes other than 1 and 5, θ outside the grid)."""
    table = TABLE_3 if passes == 1 or algorithm == "n-omm" else TABLE_4 if passes == 5 else None
    if table is None:
        return None
    row = table.get((float(theta), algorithm))
    return None if row is None else row[BIAS_INDEX[bias]]
