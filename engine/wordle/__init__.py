"""The Wordle family: games scored by feedback on a guess (Wordle in its modes, Mastermind, Bulls and
Cows), on one board.

Its parts: `patterns` (the pattern matrix and its checked cache), `tree` (the wordtree/1 document),
`verify` (the independent replay verifier), `player` (next / candidates / play, no numba), `grade`
and `formats` (other solvers' files). The games themselves are in `games/`, the exact search in
`exact/`. Importing this package imports none of them.
"""
