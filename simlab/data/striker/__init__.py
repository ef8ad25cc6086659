"""Data tables of the Striker-derived system (STR-5, STR-9, STR-10)."""
