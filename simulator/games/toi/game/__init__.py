"""Tide of Iron as a whole game on the engine (issue 19): the rules of a round (001 Turn
sequence) over the combat rules of :mod:`simulator.games.toi`, in the shape of the Assault
game module.

- ``state``      the state arrays (``GameState``: u, g, hx, aux, rng, log) and the codes
- ``tables``     a scenario compiled to integer arrays (``Tables``)
- ``scenario``   ``scenarios/toi/*.scenario.toml`` -> ``Tables`` (map, line of sight,
                 movement costs, objectives, markers, squads, vehicles)
- ``turn``       the game API: ``new_game``, ``legal_actions``, ``apply_action``
- ``view``       read-only accessors for players and reports
- ``phases/``    ``setup`` (deployment, op-fire placement, squad transfers and
                 reinforcements), ``transfer`` (the transfers' rules), ``action``
                 (the action phase), ``movement`` (moves, op fire, fortifications,
                 transport), ``command`` (command and status phases, the end)
- ``fire``, ``area``, ``assault``   the attacks, on :mod:`simulator.games.toi.rules.jit`
- ``units``      squads and vehicles on the map, the dice
- ``events``     the event log; ``invariants`` what every state must satisfy
- ``game``       the Python side (``Game``: also the shared batch runner's game object;
                 ``State``, ``play_games``)
- ``records``    the record hooks of the shared batch entry (``engine/players/chunks.py``): a game's record
- ``greedy``, ``playerapi``  its greedy player (one ply on sampled dice) and its side of
                 the game API, through which the shared players (random, lookahead,
                 mcts) play it
- ``balance``, ``variants``, ``warmup``  the balance report (``lanchester toi scenario``)
                 with the what-ifs on the game's own keys (``rounds``, ``actions``,
                 ``initiative``, ``vp.OBJECTIVE``), and the batch entry compiled in the background (the demo)
- ``board``, ``check``, ``replay``  the scenario tools: the map for the shared drawing and
                 line of sight with its reasons, checking a file, a batch game decision by
                 decision (``lanchester toi map | los | check | replay``)

Squad transfers (T35), scenario smoke (T36), removing razor wire (T37), the medic's
Heal (T38), scenario concealment (T39), digging entrenchments (T40), setting up squads
in vehicles (T41), supporters of area attacks (T42) and moving through hexes of
concealed enemy squads (T43) are played. Not yet: strategy and operations cards (out of
scope until their texts exist as data; smoke and concealment come only from the
scenario file). Readings: ``docs/rulings.md``, Tide of Iron, T22-T43.
"""
