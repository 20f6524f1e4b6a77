"""The named layouts of the rules' state (plain Python: importing them compiles nothing).
``base``: the contract (``fields``, ``Layout``); a module per family's rules, named after
the family, plus ``averaging`` (the rows and slots ``average=`` adds) and ``regression``
(the regressors' layouts, whose rules live in two families); ``feature_major``: how a wide
averaged state is stored in memory; ``support_check``: the support sets of a state read from
a file, checked before compiled code sees it."""
