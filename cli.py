"""`python cli.py ...` in a checkout: the `wordtree` command (wordtree.commands).

Installed (`pip install -e .` or a wheel), this imports the package `wordtree`. In a bare checkout
it loads `engine/` under that name first, so the command also runs without an install.
"""

import importlib.util
import sys
from pathlib import Path

try:
    import wordtree  # noqa: F401
except ImportError:
    _root = Path(__file__).resolve().parent / "engine"
    _spec = importlib.util.spec_from_file_location("wordtree", _root / "__init__.py",
                                                   submodule_search_locations=[str(_root)])
    sys.modules["wordtree"] = importlib.util.module_from_spec(_spec)
    _spec.loader.exec_module(sys.modules["wordtree"])

from wordtree.commands import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
