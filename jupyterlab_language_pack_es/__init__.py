"""JupyterLab in the course's Spanish (locale ``es``): written by ``python -m lesson3.build_language_pack``.

Only data: ``locale/es/LC_MESSAGES/<domain>.json`` (the front end's strings) and ``<domain>.mo`` (the server's:
menu titles, settings). Registered with JupyterLab by the ``jupyterlab.languagepack`` entry point in pyproject.toml.
"""
