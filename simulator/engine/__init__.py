"""The full-scenario engine of the Assault system.

Map half (issue 6): :mod:`~simulator.engine.scenario` (the scenario format and its
checks), :mod:`~simulator.engine.hexgrid` (hex geometry, facing, arcs of fire, areas of
impact), :mod:`~simulator.engine.los` (line of sight), :mod:`~simulator.engine.compiled`
(a map as numpy arrays), :mod:`~simulator.engine.movement` (movement, 9.x) and
:mod:`~simulator.engine.mapdraw` (pictures). The turn sequence and the players live in
the engine's other modules.
"""
