"""SpaceRace's rules, one module a part of the rulebook.

The state, the actions, the map's shape (``mapgen``), set-up, turns and movement, battles,
planets and ships; ``dispatch`` hands each action to its chapter. Nothing here imports a view
or a bot.
"""
