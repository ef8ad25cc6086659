"""Weapon and armour tables of HiTech TFT (TFT-8, TFT-9)."""
