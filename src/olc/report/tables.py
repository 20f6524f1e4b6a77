"""Plain tables from a list of row dicts."""
import csv
import math

from .._util.atomic import atomic_open


def format_number(value, digits=4):
    """A table cell: "—" for None (the papers' dash), ints as ints, floats to ``digits``
    significant digits."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        return f"{value:.{digits}g}"
    return str(value)


def markdown_table(rows, columns, headers=None, digits=4):
    headers = headers or columns
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in columns) + "|"]
    for row in rows:
        lines.append("| " + " | ".join(format_number(row.get(c), digits) for c in columns) + " |")
    return "\n".join(lines) + "\n"


def write_csv(path, rows, columns):
    with atomic_open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        for row in rows:
            writer.writerow({c: ("" if row.get(c) is None else row.get(c)) for c in columns})
