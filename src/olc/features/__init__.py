"""Features for linear learners: :class:`GaussianBasis` (:mod:`.basis`), a basis φ that makes
any olc learner a linear-in-parameter model θᵀφ(x), and feature-selection scores for online
baselines (:mod:`.selection`: information gain and the game of Shen & Dietterich 2009)."""
from .basis import GaussianBasis

__all__ = ["GaussianBasis"]
