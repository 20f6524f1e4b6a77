"""Make the shared reference helpers (``_exactness_helpers``) importable whatever pytest's
import mode (the default "prepend" mode already puts this folder on sys.path)."""
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
