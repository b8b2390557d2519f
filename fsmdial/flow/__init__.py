"""The flow format (being split into modules; this commit only moves flow.py to flow/nodes.py)."""

from .nodes import *  # noqa: F403
