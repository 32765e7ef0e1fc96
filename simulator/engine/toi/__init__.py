"""Tide of Iron as a whole game on the engine (issue 19): the rules of a round (001 Turn
sequence) over the combat rules of :mod:`simulator.toi`, in the shape of the Assault
game module (state, tables, scenario, turn, view, phases, game, invariants)."""
