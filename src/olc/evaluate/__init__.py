"""The online protocol (progressive validation) and its metrics."""
from .metrics import (absolute_error, cumulative_error_rate, cumulative_mean_squared_error,
                      final_margin, m_phi, mistakes, squared_error)
from .protocol import ProgressiveResult, progressive

__all__ = ["ProgressiveResult", "absolute_error", "cumulative_error_rate",
           "cumulative_mean_squared_error", "final_margin", "m_phi", "mistakes", "progressive",
           "squared_error"]
