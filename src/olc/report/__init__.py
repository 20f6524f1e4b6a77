"""Reports: tables (markdown/CSV), figures (matplotlib), JSON results. A report never runs a
learner; it formats results it is given."""
from .figures import plot_cumulative_error, plot_panels
from .results import write_json
from .tables import format_number, markdown_table, write_csv

__all__ = ["format_number", "markdown_table", "plot_cumulative_error", "plot_panels", "write_csv", "write_json"]
