"""Dordle solved exactly: two boards, two different answers, every guess played on both.

search.py holds the exact search (W over states of two candidate sets, the single-board remainders
handed to exact.Solver), bounds.py its lower bounds with their proofs, kernels.py the numba passes
that prune and bound every guess at a state (and walk the heuristic strategy), and tree.py the tree
file (build, verify); heuristic.py and lower.py the heuristic strategy and the proven lower bounds
where the exact search is out of reach, document.py what the tree and strategy files share.
The brute-force oracle is tests/reference_dordle.py; the benchmark bench/dordle.py.
"""
