"""Starship Showdown's rules, one module a part of the rulebook.

The state, the actions, the upgrade phase (``upgrade``), the turn (``turns``, the dispatch),
combat, boarding, xenotech, ships and dice. Nothing here imports a view or a bot.
"""
