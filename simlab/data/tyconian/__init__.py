"""Data tables of the Tyconian system (TYC-0, TYC-2.1, TYC-4.2, TYC-5.1)."""
