"""Data tables of the Space Combat V4 system (SPC-1 ships, SPC-4.2 damage fractions)."""
