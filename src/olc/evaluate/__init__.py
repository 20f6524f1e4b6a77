"""The online protocol (progressive validation) and its metrics."""
from .metrics import cumulative_error_rate, final_margin, m_phi, mistakes
from .protocol import ProgressiveResult, progressive

__all__ = ["ProgressiveResult", "cumulative_error_rate", "final_margin", "m_phi", "mistakes",
           "progressive"]
