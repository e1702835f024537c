"""The optional chapters (modules) Mothership knows, in the order their hooks are called.

A module is one file ending with its ``PLUGIN`` (a :class:`..rules.hooks.Module`); adding one is that
file and a line here. The game keeps those whose options are on (``Mothership.hooks``). The
order matters where two modules hang on one hook: objectives are checked before a victory is
claimed, and the NPC plays on last.
"""

from __future__ import annotations

from ..rules.hooks import Module
from . import beacons, cannons, exploration, hazards, npc, objectives, random_events, scripts, victory

MODULES: tuple[Module, ...] = (
    random_events.PLUGIN,
    exploration.PLUGIN,
    hazards.PLUGIN,
    cannons.PLUGIN,
    beacons.PLUGIN,
    objectives.PLUGIN,
    victory.PLUGIN,
    scripts.PLUGIN,
    npc.PLUGIN,
)
