"""The sequence of play of Assault, one module per phase (chapter 6).

Each module owns its phase's legal actions, what applying one does and its automatic
steps; :mod:`simulator.games.assault.game.turn` dispatches to them by the pending decision
(``g[G_SUB]``). Modules, from the start of a game:

- :mod:`.setup`: formation cards and placement (chapter 5);
- :mod:`.initiative`: a turn's start and its initiative (6.1);
- :mod:`.command` and :mod:`.planning`: command points (6.2.2);
- :mod:`.support`: the support phase (6.3, chapter 7);
- :mod:`.action`: activations and passes (6.4, 8.1), with :mod:`.movement` (chapter 9),
  :mod:`.reaction` (8.2) and :mod:`.fallback` (13.3); close combat is
  :mod:`simulator.games.assault.game.closecombat` (chapter 12);
- :mod:`.organisation`: organisation, victory and reinforcements (6.5-6.7).

Imports point one way: command <- reaction <- movement <- fallback, action <- support <-
initiative, planning; setup <- organisation.
"""
