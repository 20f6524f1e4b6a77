"""PEP 562 lazy attributes, shared by ``olc`` and ``olc.learners``: a package's exported names
are imported from their defining modules on first access, so importing the package is cheap
(scikit-learn, numba and matplotlib load only when a learner or a tool is touched)."""
import importlib
import importlib.util


def lazy_attributes(package, namespace, table):
    """(``__getattr__``, ``__dir__``) for the package named ``package`` whose module dict is
    ``namespace``: ``table`` maps an exported name to its defining module; any other name
    that is a subpackage/submodule not imported yet is imported."""

    def __getattr__(name):
        module = table.get(name)
        if module is None:
            if not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}"):
                return importlib.import_module(f"{package}.{name}")
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value  # later accesses skip __getattr__
        return value

    def __dir__():
        return sorted(set(namespace) | set(table))

    return __getattr__, __dir__
