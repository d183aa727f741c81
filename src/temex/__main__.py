"""``python -m temex``: the same as the ``temex`` command."""

import sys

from .cli.main import main

sys.exit(main())
