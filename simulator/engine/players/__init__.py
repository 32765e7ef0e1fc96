"""The computer players every game shares, one module each, behind one interface
(numba), written against the game API (:mod:`simulator.engine.core.gameapi`), never a
game's internals: a game that registers the API (Assault's
:mod:`simulator.games.assault.game.playerapi`, Tide of Iron's
:mod:`simulator.games.toi.game.playerapi`) gets every one of them unchanged.

- :mod:`.interface`: the dispatch by kind (:func:`~.interface.choice`, for Python
  :func:`~.interface.choose`), whole games (:func:`~.interface.play`),
  :data:`~.interface.PLAYER_NAMES`, the players' scratch (:func:`~.interface.make_work`:
  the game's ``Work``) and the parameters (what a player may read, draw and keep is
  documented there);
- :mod:`.base`: what every player shares (its own random stream, the parameters' layout,
  the actions restricted play leaves it);
- :mod:`.randomplay`: ``random``, uniform over the legal actions;
- ``greedy``: the game's own (Assault's :mod:`simulator.games.assault.game.greedy`, the
  best action by exact odds and the value of hexes; Tide of Iron's
  :mod:`simulator.games.toi.game.greedy`, one ply on sampled dice);
- :mod:`.lookahead`: ``lookahead``, flat Monte Carlo over greedy's best actions;
- :mod:`.mcts`: ``mcts``, open-loop Monte Carlo tree search, greedy ordering its
  candidates and playing its playouts;
- :mod:`.uct`: ``uct``, a second search family with none of greedy's priors or value:
  open-loop UCT over every legal action with random playouts, valued by the rules' outcome.

Their numba caches are compiled into each game's code: they are dropped with any game's
when a compiled source changes (:mod:`simulator.engine.core.compiling`).
"""
