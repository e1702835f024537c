"""Mothership's base game, chapters 1-11 of the rulebook: the kernel every table plays.

The state (``state``) is plain data; ``dispatch`` says what is legal and applies actions by
phase, calling one module a chapter (``movement``, ``combat``, ``economy``, ``tech``, ...) and the
optional chapters only through the named hooks of ``hooks``. Nothing here imports a view, a bot
or an optional module.
"""
