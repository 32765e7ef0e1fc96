"""The whole-game engine: scenarios played thousands of times by computer players.

Layout (the flow: scenario data -> compiled tables -> numba rules -> batch records ->
balance report):

- :mod:`simulator.engine.core`: what every game on the engine shares: numbered fields
  from one declaration (``fields``), how rules are compiled with numba (``compiling``),
  the hex grid, line of sight, a map as arrays and its pictures (``hexgrid``, ``los``,
  ``compiled``, ``mapdraw``), hex specs of scenario files (``hexspec``), seeding every
  game's streams (``seeding``), copying a state (``statecopy``), the batch runner and
  its records (``batch``, taking a game object; ``records``: the shared columns), the balance
  report with what-ifs, tuning and the skill ladder (``balance``), the compiled-scenario
  cache (``gamecache``) and the ahead-of-time compile (``warmup``).
- :mod:`simulator.engine.assault`: the Assault game: its state layout (``state``), the
  scenario format and compile (``scenario``, ``compile``, ``tables``), the game API
  (``turn``: ``new_game``, ``legal_actions``, ``apply_action``, ``advance``; ``game``:
  the same in Python, OpenSpiel style), the sequence of play by phase (``phases``), and
  the rules the phases call (``fire``, ``closecombat``, ``moves``, ``support``,
  ``transport``, ``overrun``, ``intocc``, ``board``), events and replays (``events``,
  ``replay``, ``activity``) and the invariants checked over many games (``invariants``).
- :mod:`simulator.engine.players`: the computer players, one module each, behind one
  interface.

- :mod:`simulator.engine.toi`: the Tide of Iron game, in the same shape, with its own
  (provisional) players.

The seam between a game and the core is a game object (OpenSpiel's ``Game``):
Assault's :class:`~simulator.engine.assault.compile.Game` and Tide of Iron's
:class:`~simulator.engine.toi.game.Game` give the batch runner and the balance report
what they need (tables, ``new_state``, the compiled batch entry for the players
(``chunk_entry(kinds)``, from ``<game>/records.py``), record columns, sides, players; see
:mod:`simulator.engine.core.batch`). Still Assault's: the shared players, the warm-up,
the what-ifs, tuning and ladder of ``balance``, ``compiled``/``mapdraw``. numba's disk
caches are dropped per game package (``core.compiling.CACHE_GROUPS``).
"""
