"""Reports: tables (markdown/CSV), figures (matplotlib), JSON results. A report never runs a
learner; it formats results it is given."""
from .figures import plot_cumulative_error
from .results import write_json
from .tables import format_number, markdown_table, write_csv

__all__ = ["format_number", "markdown_table", "plot_cumulative_error", "write_csv", "write_json"]
