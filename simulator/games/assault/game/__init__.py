"""The Assault game on the engine: state, scenario compile, the game API and the rules of
a whole game by phase (see :mod:`simulator.engine`)."""
