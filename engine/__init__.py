"""wordtree: provably optimal decision trees for word-guessing games.

Data flow: words -> games -> patterns (matrix) -> search -> tree (JSON) -> player / verify.
Importing the package is cheap: numba is only imported by the modules that compile kernels.
"""

__version__ = "0.1.0"
ENGINE = f"wordtree {__version__}"
