"""Status codes returned by the online loops (``loops.py``)."""
OK, BAD_ROW, OVERFLOW = 0, 1, 2
