"""Any number of Wordle boards at once (Quordle 4, Octordle 8, Sedecordle 16, Duotrigordle 32):
every guess is played on every board still open, the answers of the boards all differ, and the
game ends when the last board is solved.

spec.py: the presets and a game's parameters; position.py: a game in progress (each board's
answers left, the steps as GUESS:P1/.../PK, the shared emoji grid); player.py: the heuristic
player; sample.py: its evaluation on a seeded sample of answer tuples (or on every tuple of a
small list); document.py: the sample's file; lower.py: proven lower bounds on the optimum;
exact.py: the exact optimum of tiny games by plain search.
"""
