"""``python -m fsmdial.cli ...``: the ``fsmdial`` command."""

import sys

from . import main

sys.exit(main())
