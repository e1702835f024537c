"""Every registered game for AI research: OpenSpiel, PettingZoo and Gymnasium adapters.

Install the extra first: ``pip install 'spacetable[rl]'``. Nothing else in spacetable imports
this package, so the rest works without it. The adapters are generic over the game registry:

- :mod:`spacetable.interop.openspiel`: importing it registers every game as a pyspiel Python
  game, ``pyspiel.load_game("spacetable_showdown(players=4)")``.
- :mod:`spacetable.interop.pettingzoo`: ``env("showdown", players=4)``, a turn-based AEC
  environment, and ``parallel_env(...)`` where seats that decide at once act together.
- :mod:`spacetable.interop.gymnasium`: importing it registers every game that can be played
  solo, ``gymnasium.make("spacetable/FallingSkies-v0", level=1)``.

All three present a game the same way (:mod:`spacetable.interop.sequential`) and observe it with
the game's own tensor (``Game.observation_tensor``). The PettingZoo and Gymnasium environments
pay the game's returns or, with ``reward="shaped"``, its progress measure as well
(``Game.progress``; :mod:`spacetable.interop.table`). docs/INTEROP.md has the details.
"""

from importlib.util import find_spec

_MISSING = [name for name in ("numpy", "pyspiel", "pettingzoo", "gymnasium") if find_spec(name) is None]
if _MISSING:
    raise ImportError(
        f"spacetable.interop needs the rl extra (missing: {', '.join(_MISSING)}): pip install 'spacetable[rl]'"
    )
