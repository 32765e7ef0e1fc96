"""The full-scenario engine of the Assault system.

Map half (issue 6): :mod:`~simulator.engine.scenario` (the scenario format and its
checks), :mod:`~simulator.engine.hexgrid` (hex geometry, facing, arcs of fire, areas of
impact), :mod:`~simulator.engine.los` (line of sight), :mod:`~simulator.engine.compiled`
(a map as numpy arrays) and :mod:`~simulator.engine.mapdraw` (pictures). Movement
(chapter 9) is played hex by hex in a game: :mod:`~simulator.engine.moves` (steps,
turns, costs, harsh terrain, stacking) and :mod:`~simulator.engine.transport`
(loading and dismounting, 9.11). The turn sequence and the players live in the
engine's other modules.
"""
