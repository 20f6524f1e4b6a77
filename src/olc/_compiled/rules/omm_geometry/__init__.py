"""Geometry that only the OMM rules use: the nearest point of a convex hull (``nearest_point``,
Wolfe's method, n-OMM and ``olc.max_margin``) over a thin QR factorization (``thin_qr``)."""
