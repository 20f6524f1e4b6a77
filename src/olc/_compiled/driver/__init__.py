"""The Python side of the boundary with the compiled loops: inputs in the loops' exact layout
(``inputs``), the binary loops' calls (``binary``), the K-class loops' (``k_class``) and
the one-example entries' (``one_row``). Importing these compiles nothing."""
