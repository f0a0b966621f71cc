"""Dordle solved exactly: two boards, two different answers, every guess played on both.

search.py holds the exact search (W over states of two candidate sets, the single-board remainders
handed to exact.Solver), bounds.py its lower bounds with their proofs, kernels.py the numba pass
that bounds every guess at a state, tree.py the tree file (build, verify), and game.py the
feedback of the two boards as text.
"""
