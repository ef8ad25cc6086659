"""What simlab is and when this process first imported it: its version and the whole job's start."""

from __future__ import annotations

import time

__all__ = ["__version__", "STARTED"]

#: When simlab was first imported: the whole job's time that commands print counts from here.
STARTED = time.perf_counter()

__version__ = "0.1.0"
