"""The whole-game engine: scenarios played thousands of times by computer players.

Layout (the flow: scenario data -> compiled tables -> numba rules -> batch records ->
balance report):

- :mod:`simulator.engine.core`: what every game on the engine shares: numbered fields
  from one declaration (``fields``), how rules are compiled with numba (``compiling``),
  the hex grid, line of sight, a map as arrays and its pictures (``hexgrid``, ``los``,
  ``compiled``, ``mapdraw``), the batch runner and its records (``batch``), the balance
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

The seam between a game and the core is the game API of ``assault.turn``; the batch
runner, the players' dispatch and the warm-up still name Assault's entries directly
(the second game, Tide of Iron, is where they take the game as a parameter).
"""
