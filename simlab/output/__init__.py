"""The output: the report document, pivot tables, charts, HTML templates, provenance and atomic writing."""
