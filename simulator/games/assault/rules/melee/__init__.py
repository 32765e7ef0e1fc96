"""Close combat in both editions: who holds the hex, and at what cost (chapter 12).

Two editions are supported and chosen by name (rulings #9): ``v1``, the rule book
1.0 (``000``, 12.0-12.11: one simultaneous exchange when a close combat is initiated,
reinforced or renewed, continuing turn by turn), and ``v2``, the revised chapter
(``004``, 12.1-12.6: rounds repeat in one activation until elimination, fallback or
withdrawal; support units; first-round modifiers; fortifications).

Modules, one idea each:

- :mod:`.situation`: :class:`MeleeSituation`, the units in their slots
  (:class:`Cast`) and the ONE pool assembly, :func:`direction_pools`, with a
  :class:`~simulator.games.assault.rules.pools.Step` per rule for ``--explain``;
- :mod:`.v1`, :mod:`.v2`: each edition's round rules, called by the pool assembly;
- :mod:`.damage`: what uncancelled symbols do (12.5, 12.9; revised 12.1.4, 12.5);
- :mod:`.policies`: withdrawal (rulings #10), re-rolls (rulings #11), targets, tracks;
- :mod:`.fight`: the sequence of rounds as a state machine over int arrays;
- :mod:`.tables`: the pools of every possible round, tabulated for the kernels;
- :mod:`.exact`: one round exactly; the whole fight as a Markov chain;
- :mod:`.kernels`: numba Monte Carlo through :func:`simulator.run.runner.run`;
- :mod:`.replay`: one round with given rolls (worked examples);
- :mod:`.editions`: which rules differ between the editions;
- the questions, :func:`melee` and :func:`compare_editions` (DataFrames), are the
  calculator's: :mod:`simulator.games.assault.questions.melee`.

Scenario-engine API
-------------------
The engine resolves close combat inside its numba hot loop with the same rules.
Before the loop, in Python, it tabulates each pairing of units it may meet::

    cast = build_cast("v2", attacker_card, defender_card, MeleeSituation(...), aid, units)
    cm = compile_melee(cast, max_rounds=V2_ROUND_CAP, policies=("half-strength", "half-strength"))
    T, U, S0, P = cm.tables, cm.units, cm.state, cm.params

``T`` is a :data:`~.tables.MeleeTables` namedtuple of int64/float64 arrays (packed
dice faces as in :mod:`simulator.games.assault.rules.kernels`, re-roll gains, flags and a
lookup by round kind, half strength, immobilisation and tracks choice); ``U`` is
``int64[4, N_UNIT]`` unit constants by slot (attacker, attacker's reinforcement,
defender, defender's second unit; kind, strength, half-strength threshold, elite,
...); ``S`` is the ``int64[N_STATE]`` state (each unit's status, damage, morale
marker, immobilised, active; rounds fought; turn); ``P`` the ``int64[N_PARAM]``
parameters (edition, cap, withdrawal policies, tracks policy). Layouts and field
constants are in :mod:`.fight`. Inside the loop, with an RNG state from
:func:`simulator.run.rng.seed_state`, copy ``S0`` into the engine's own ``S`` (set the
units' damage/morale/immobilised with :func:`~.fight.set_unit` when they differ from
the tabulated start) and call:

- :func:`~.kernels.resolve_exchange` ``(T, U, S, P, x, y, kind, rng)``: ONE round
  between slots ``x`` and ``y`` of the given kind (v1: ``V1_INITIATE``,
  ``V1_REINFORCE``, ``V1_RENEW``; v2: ``V2_FIRST``, ``V2_LATER``), simultaneous;
- :func:`~.kernels.resolve_round_v2` ``(T, U, S, P, rng)``: one revised round (initial
  or later by ``S[G_ROUNDS]``), with the withdrawal check after it;
- :func:`~.kernels.resolve_fight` ``(T, U, S, P, rng)``: the whole close combat (v2:
  until it ends or the round cap; v1: turn by turn to the turn cap; an engine that
  plays v1 turns itself calls ``resolve_exchange`` once per initiation, reinforcement
  or renewal instead). Returns ``(code, rounds)`` after the first turn.

Afterwards read each unit with :func:`~.fight.field` (``F_STATUS`` is one of
``IN_HEX``, ``FELL_BACK``, ``WITHDREW``, ``ELIMINATED``, ... from :mod:`.damage`).
All these functions take only arrays and ints and are compiled with ``cache=True``.
"""

from simulator.games.assault.rules.melee import v1, v2  # noqa: F401,E402  (each registers its round rules)
from simulator.games.assault.rules.melee.situation import (
    EDITIONS,
    V1_INITIATE,
    V1_REINFORCE,
    V1_RENEW,
    V2_FIRST,
    V2_LATER,
    Cast,
    Direction,
    MeleeSituation,
    build_cast,
    direction_pools,
)
from simulator.games.assault.rules.melee.tables import compile_melee

__all__ = ["EDITIONS", "V1_INITIATE", "V1_REINFORCE", "V1_RENEW", "V2_FIRST", "V2_LATER", "Cast", "Direction",
           "MeleeSituation", "build_cast", "compile_melee", "direction_pools"]
