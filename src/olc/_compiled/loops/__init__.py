"""The loop templates (``binary``, ``multiclass``, ``one_vs_rest``, ``one_row``): each is
executed once per family by ``olc._compiled.loader``, never imported directly; ``codes``:
what they return."""
