"""A throwaway third game, High Card, added the way any new game is: nothing shared changes.

Its engine package (high_card/), its one game module (kind.py), its templates (templates/) and
one registry call (tests/third_game/test_third_game.py) are all it takes.
"""
