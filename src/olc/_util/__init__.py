"""olc's private helpers, shared by its rooms: atomic file writes (:mod:`.atomic`), caches that
heal (:mod:`.cache`), PEP 562 lazy attributes (:mod:`.lazy`), scipy.sparse without its import
cost (:mod:`.sparse`), and a progress bar that appears only for work that lasts
(:mod:`.progress`). Not part of the public API."""
