"""The whole-game engine: scenarios played thousands of times by computer players.

Layout (the flow: scenario data -> compiled tables -> numba rules -> batch records ->
balance report):

- :mod:`simulator.engine.core`: what every game on the engine shares, and knows no game
  (``tests/test_layers.py``): numbered fields from one declaration (``fields``), how
  rules are compiled with numba (``compiling``), the action encoding and the event log
  (``actions``, ``eventlog``), the hex grid and line of sight (``hexgrid``, ``los``),
  map pictures (``mapdraw``: ``draw_board``), hex specs of scenario files (``hexspec``),
  seeding every game's streams (``seeding``), copying a state (``statecopy``), the batch
  runner and its records (``batch``, taking a game object; ``records``: the shared
  columns), the game-neutral balance report (``balance``: a run and its summary,
  what-ifs and tuning with common random numbers, the skill ladder and the skill curve,
  verdicts), waiting on a background compile (``background``) and the game API the
  players are written against (``gameapi``: each game registers its side of it).
- :mod:`simulator.games.assault.game`: the Assault game: its state layout (``state``), the
  scenario format and compile (``scenario``, ``compile``, ``tables``), the game API
  (``turn``: ``new_game``, ``legal_actions``, ``apply_action``, ``advance``; ``game``:
  the same in Python, OpenSpiel style), the sequence of play by phase (``phases``), and
  the rules the phases call (``fire``, ``closecombat``, ``moves``, ``support``,
  ``transport``, ``overrun``, ``intocc``, ``board``), events and replays (``events``,
  ``replay``, ``activity``), the invariants checked over many games (``invariants``),
  its map as arrays and its pictures (``compiled``, ``mapdraw``), the compiled-scenario
  cache (``gamecache``), the ahead-of-time compile (``warmup``) and its balance report
  (``balance``: what-ifs, tuning, the ladder, the skill curve, restricted play).
  Its greedy player and what the shared players ask of it (``greedy``,
  ``greedy_values``, ``playerapi``).
- :mod:`simulator.engine.players`: the computer players every game shares (random, the
  look-ahead, the tree search, whole-game loops), one module each, behind one interface,
  written against ``core.gameapi``: they import no game.

- :mod:`simulator.games.toi.game`: the Tide of Iron game, in the same shape, with its greedy
  player and its ``playerapi``.

The seam between a game and the core is a game object (OpenSpiel's ``Game``):
Assault's :class:`~simulator.games.assault.game.scenario_game.Game` and Tide of Iron's
:class:`~simulator.games.toi.game.game.Game` give the batch runner and the balance report
what they need (tables, ``new_state``, the compiled batch entry for the players
(``chunk_entry(kinds)``, from ``<game>/records.py``), record columns, sides, players; see
:mod:`simulator.engine.core.batch`). The seam between a game and its players is the
game API (:mod:`simulator.engine.core.gameapi`, OpenSpiel's ``State``): each game's
``playerapi`` registers its rules' entry points, its greedy player and its position
value for its ``GameState``, and the shared players reach them by the state's type.
numba's disk caches are dropped per game package (``core.compiling.CACHE_GROUPS``).
"""
