"""Data tables shipped with simlab, one folder per rule system."""
