"""``python -m fsmdial ...``: the ``fsmdial`` command."""

import sys

from .cli import main

sys.exit(main())
