"""``python -m temex``: the same as the ``temex`` command."""

import sys

from .cli import main

sys.exit(main())
