"""Named layouts of every rule, one module per family (plain Python: importing them compiles
nothing). See ``olc._compiled.layout`` for the contract."""
