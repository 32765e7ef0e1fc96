"""The computer players, one module each, behind one interface (numba).

- :mod:`.interface`: the dispatch by kind (:func:`~.interface.choice`, for Python
  :func:`~.interface.choose`), whole games (:func:`~.interface.play`),
  :data:`~.interface.PLAYER_NAMES`, the scratch and memory :class:`~.interface.Work`
  and the parameters (what a player may read, draw and keep is documented there);
- :mod:`.base`: what every player shares (its own random stream, the parameters' layout);
- :mod:`.randomplay`: ``random``, uniform over the legal actions;
- :mod:`.greedy_values` and :mod:`.greedy`: ``greedy``, the best action by exact odds
  and the value of hexes;
- :mod:`.lookahead`: ``lookahead``, flat Monte Carlo over greedy's best actions;
- :mod:`.mcts`: ``mcts``, open-loop Monte Carlo tree search over the game API, greedy
  ordering its candidates and playing its playouts.

The players read the game through :mod:`simulator.engine.assault.view`.

Their numba cache is dropped with the engine's when any compiled source changes
(:mod:`simulator.engine.core.compiling`).
"""
