"""The codes the compiled entries return (plain Python: the callers import them too)."""
# Status of an online loop (``binary``, ``one_vs_rest``, ``multiclass``): it ran to the end,
# or stopped before a row with a NaN/inf value, or before a row whose step overflowed.
OK, BAD_ROW, OVERFLOW = 0, 1, 2
# ``learn_one``'s result (``one_row``): the step's ``updated`` flag, or why it stopped
# before learning.
NOT_UPDATED, UPDATED, BAD_VALUE, DECLINED = 0, 1, 2, 3
