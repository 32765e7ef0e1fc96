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
  players are written against (``gameapi``: each game registers its side of it), the
  Python side every game shares (``pystate``: the ``Game`` protocol and the OpenSpiel-style
  ``State`` base).
- :mod:`simulator.engine.players`: the computer players every game shares (random, the
  look-ahead, the tree search, whole-game loops), one module each, behind one interface,
  written against ``core.gameapi``: they import no game.

Each game lives in its own folder, :mod:`simulator.games` (its rules, the calculators'
questions, the whole game on this engine in ``game/``, its reports and commands); a
game's ``game`` package holds its state layout, scenario compile, the game API
(``turn``), the phases, its greedy player and its ``playerapi``.

The seam between a game and the core is a game object (OpenSpiel's ``Game``):
Assault's :class:`~simulator.games.assault.game.scenario_game.Game` and Tide of Iron's
:class:`~simulator.games.toi.game.game.Game`, both of the :class:`~simulator.engine.core.pystate.Game`
protocol, give the batch runner and the balance report
what they need (tables, ``new_state``, the compiled batch entry for the players
(``chunk_entry(kinds)``: the shared ``engine/players/chunks.py`` with the record hooks of ``<game>/records.py``), record columns, sides, players; see
:mod:`simulator.engine.core.batch`). The seam between a game and its players is the
game API (:mod:`simulator.engine.core.gameapi`, OpenSpiel's ``State``): each game's
``playerapi`` registers its rules' entry points, its greedy player and its position
value for its ``GameState``, and the shared players reach them by the state's type.
numba's disk caches are dropped per game package (``core.compiling.CACHE_GROUPS``).
"""
