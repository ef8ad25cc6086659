"""Mechanics shared by rule systems, each with an exact form (and, in the systems, a sampler)."""
