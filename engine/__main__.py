"""`python -m wordtree`: the `wordtree` command."""

import sys

from .commands import main

sys.exit(main())
