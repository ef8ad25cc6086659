"""``simlab serve``: a local web page to ask, see and share answers (FastAPI, Jinja2, htmx).

The pages and the JSON API are generated from the system registry, so a new system or
question appears with no page code of its own. The application lives in :mod:`.app`
(it needs the ``simlab[web]`` extra); the query strings it reads in :mod:`.query`.
"""
