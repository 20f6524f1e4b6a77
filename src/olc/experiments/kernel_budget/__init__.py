"""``olc reproduce kernel-budget``: kernel learners on a budget — the experiment Shen &
Dietterich (2009, §5) proposed (their kernel PAs with oldest removal against the Forgetron
on the drifting streams of ``olc reproduce shen-dietterich``) and a budget table on a9a and
w8a. Modules: ``data`` (streams, γ on the first 10 %), ``models`` (seeded learners, the
batch SVM references), ``protocols`` (one pass, then test), ``spec``, ``claims``,
``tables``, ``figures``, ``summary``, ``reproduction``, ``command``."""
