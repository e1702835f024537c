"""Falling-skies' bots: the evaluation (a fitted chance of winning, ``heuristic``) and the round
planner (``planner``, played as ``bot:planner``).
"""
