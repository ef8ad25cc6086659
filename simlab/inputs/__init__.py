"""The inputs: errors, typed parameters with their ranges, data tables, variants, files and limits."""
