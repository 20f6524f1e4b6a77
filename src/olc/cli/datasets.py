"""``olc datasets``: the named datasets of the data registry."""
from .support import out


def datasets_cmd():
    """List the named datasets of the data registry."""
    from rich.table import Table

    from ..data import datasets as names
    from ..data.registry import get_spec

    table = Table(title="olc datasets")
    for col in ("name", "description"):
        table.add_column(col)
    for name in names():
        table.add_row(name, getattr(get_spec(name), "description", ""))
    out.print(table)
