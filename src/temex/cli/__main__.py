"""``python -m temex.cli``: the same as the ``temex`` command."""

import sys

from .main import main

sys.exit(main())
