"""``olc serve``: online learning as a durable HTTP service (``docs/serving.md``).

``create_app(store_dir, ...)`` returns the Starlette ASGI application; ``olc serve`` runs it
under uvicorn. Imported on first use: importing ``olc.serve`` does not import Starlette."""
from .._util.lazy import lazy_attributes

_LAZY = {"create_app": "olc.serve.app", "Store": "olc.serve.store",
         "StoreError": "olc.serve.store"}
__all__ = list(_LAZY)

__getattr__, __dir__ = lazy_attributes(__name__, globals(), _LAZY)
