"""What every game on the engine shares (see :mod:`simulator.engine`)."""
