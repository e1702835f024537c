"""Falling-skies' bots: the evaluation and the round planner (``bot:planner``).

The evaluation (``heuristic``) is a fitted chance of winning; the planner (``planner``) plans
each round on sampled dice.
"""
