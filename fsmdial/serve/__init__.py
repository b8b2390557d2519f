"""`fsmdial serve`: a flow playground in the browser, and ``fsmdial loadtest``, which drives it over HTTP.

:mod:`.sessions` keeps the conversations (an event log per session in a session store), :mod:`.diagram` draws
the flow safely, :mod:`.app` is the ASGI app (page + JSON API), :mod:`.errors` the errors a request can meet
(each answered with its HTTP status); the command is :mod:`fsmdial.cli.serve`. Needs ``fsmdial[serve]``.
:mod:`.loadtest` starts ``fsmdial serve`` processes and talks to them over HTTP only (it imports none of
the app). This package's ``__init__`` imports nothing, so its errors import without the extra.
"""
