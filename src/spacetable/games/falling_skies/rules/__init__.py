"""Under Falling Skies' rules, one module a phase of the round.

Placing dice (``placement``), resolving rooms (``rooms``) and the mother ship's move
(``mothership``); ``dispatch`` hands each action to its phase. Nothing here imports a view or
a bot.
"""
