"""`fsmdial serve`: a flow playground in the browser.

:mod:`.sessions` keeps the conversations (an event log per session in a SessionStore), :mod:`.diagram` draws
the flow safely, :mod:`.app` is the ASGI app (page + JSON API), :mod:`.cli` the command. Needs ``fsmdial[serve]``.
"""
