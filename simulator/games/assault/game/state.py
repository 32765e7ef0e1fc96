"""The game state of a scenario as a few small integer arrays (chapter 6).

A game is a :class:`GameState` named tuple of numpy arrays, so the rules (``njit``
functions in :mod:`simulator.games.assault.game.turn` and friends) run without touching a Python
object and a look-ahead player can copy a whole state in a microsecond.

- ``u[unit, field]``: one row per unit slot of the scenario (``U_*`` fields below);
- ``g[field]``: the turn, phase, who decides now, the activation in progress (``G_*``);
- ``hx[hex, field]``: smoke markers (7.5, 6.5), dug-in markers (9.8.1) and how many units
  of each side stand there (stacking, 9.0);
- ``aux``: the hexes of the current move and of a fallback, the queue of units waiting
  to fall back (13.3), who holds each objective (-1 nobody, 9.7) and what became of
  each formation card (0 in the deck, 1 drawn, 2 kept, 3 set aside, 4 reinforcement);
- ``cp[side, type, 0/1]``: command points assigned / spent per unit card (6.2.2);
- ``rng[3, 4]``: xoshiro256** states: 0 the dice, 1 and 2 the two players' own draws;
- ``log[n, 8]``: events for replays (written only when ``g[G_LOG_ON]``).

Only seven arrays, all integers int64: every array in a tuple argument costs numba
compile time in every function it is passed to, and a function called with int32 here
and int64 there is compiled twice.

Actions are ints: ``kind | unit << 8 | arg << 16`` (:func:`action`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simulator.engine.core.actions import a_arg as a_arg  # the shared encoding, re-exported
from simulator.engine.core.actions import a_kind as a_kind
from simulator.engine.core.actions import a_unit as a_unit
from simulator.engine.core.actions import action as action
from simulator.engine.core.compiling import int64_constants, rule_plain
from simulator.engine.core.eventlog import EV_FIELDS as EV_FIELDS  # a log row's width, re-exported
from simulator.engine.core.fields import declare, labels

# --- unit fields (u[unit, field]) -----------------------------------------------------
U_FIELDS = declare(globals(), """
    U_SIDE          0 or 1
    U_TYPE          the unit card: a row of the tables' unit types
    U_ST            status: ABSENT, PENDING, ONMAP, CARRIED, ELIMINATED, TO_PLACE
    U_HEX           the hex it stands in, -1 none
    U_DMG           damage points (10.7.3)
    U_MORALE        STEADY, SUPPRESSED or FALLBACK (13.3)
    U_ACT           action status marker (ACT_*, 13.2)
    U_DONE          1: activated this turn
    U_FACE          the vertex it faces (artillery, vehicles)
    U_IMMOB         1: an immobilised vehicle
    U_CARRIER       the vehicle carrying it, -1 none (9.11)
    U_TIRED         1: made a fast action last turn (9.2, 13.1)
    U_CC            close-combat marker: CC_NONE, CC_ACTIVE, CC_INACTIVE (12.1-12.3, 13.1)
    U_ARRIVE        the turn it arrives as a reinforcement (6.7), 0 at the start
    U_ZONE          its set-up or entry zone
    U_ENTRY         its entry zone as a reinforcement
    U_FORM          its formation card, -1 none (5.6)
    U_HELD          1: delayed last turn (9.5), flipped to a normal action
    U_CCROLE        its role in the close combat in progress (closecombat.py)
    U_NEXT_TIRED    (unused)
    U_EMERG         1: waiting to be placed by an emergency disembark (10.10.3, 12.10); U_HEX: from where
    U_FACED         1: this artillery unit changed its facing in this support phase (7.6)
    U_FELL          1: the unit has fallen back at least once in this game (13.3 "ever", reading S22)
""")

# --- global fields (g[field]) ---------------------------------------------------------
G_FIELDS = declare(globals(), """
    G_TURN              the turn, from 1 (0 during the set-up)
    G_PHASE             the phase (PH_*, chapter 6)
    G_SUB               the pending decision or the next automatic step (SUB_*)
    G_ACTIVE            the side whose turn it is to act (8.1) or to support (6.3)
    G_FIRST             the side with the initiative this turn (6.1)
    G_PASSES            consecutive passes (8.1: three end the action phase)
    G_DECIDER           the side that decides now, -1 nobody (automatic step or game over)
    G_UNIT              the unit whose activation is in progress, -1 none
    G_MODE              the move in progress (MODE_*)
    G_MP                its movement points left
    G_STEPS             hexes entered so far in it (set-up: cards still to keep)
    G_TARGET            set-up: the card type being chosen, the roll-off's winner; -1 none
    G_WINNER            the winner when the game is over, -1 a draw
    G_REASON            why the game ended (R_*)
    G_OVER              1: the game is over
    G_LOGN              events logged so far
    G_LOG_ON            1: events are logged (replays)
    G_FB_UNIT           the unit falling back, -1 none (13.3)
    G_FB_MP             its movement points left
    G_FB_STEPS          hexes it entered so far
    G_REACT_UNIT        the unit reaction fire may target (8.2)
    G_REACT_BACK        the step play goes back to after the reaction
    G_PATHN             hexes in the move's path (aux[AUX_PATH])
    G_FB_PATHN          hexes in the fallback's path (aux[AUX_FBPATH])
    G_QN                units queued to fall back (aux[AUX_QUEUE])
    G_CC_HEX            the close combat in progress: its hex
    G_CC_A              its attacking unit
    G_CC_D              its defending unit
    G_CC_ROUND          rounds fought (revised edition)
    G_CC_KIND           how it began: initiated, reinforced or renewed (first edition)
    G_PLACE_SIDE        the side placing a unit (5.8)
    G_SUPPORT_PASSED    bit per side: passed in this support phase (6.3)
    G_DECIDED_TURN      the turn since which the provisional winner has not changed
    G_ACTIVATIONS       activations so far (a statistic)
    G_CP0*2             command points of each side's formation cards (4.9.2)
    G_CPLOST0*2         command points each side lost with its units (10.7.3)
    G_FB_ORIGIN         the step play goes back to after the fallback
    G_CC_BACK           the step play goes back to after clearing an over-stacked hex (12.6)
    G_ORIGIN            (unused)
    G_SETUP_FIRST       the side that set up first (5.8)
    G_REACTIONS         reaction fire shots so far (a statistic)
    G_FALLBACKS         fallbacks so far (a statistic)
    G_CCS               close combats so far (a statistic)
    G_STAGE             the step of a multi-step phase (set-up draws, planning, reinforcements)
    G_PROV              the provisional winner at the last organisation phase
    G_CC_SUPA           revised 12.1.1.1: the attacker's support unit, -1 none
    G_CC_SUPD           the defender's support unit, -1 none
    G_CC_FLAGS          the close combat's situation flags (closecombat.py; from bit 8 the area entered from)
    G_CC_PEND           1 + a hex to clear of over-stacking after a close combat (12.6), 0 none
    G_CC_Q              the close-combat question pending (Q_*, closecombat.py)
    G_SMOKE_ANY         1: some hex has smoke (a shortcut for line of sight)
    G_PLAN0*2           (unused: the players keep their memory in their own Work)
    G_DECISIONS         decisions taken so far
    G_FIRST1            the side with the initiative on turn 1
    G_TURNED            1: the mover turned in this hex (9.9, 9.10)
    G_FACES             bit per vertex the mover faced in this hex
    G_CC_AFTER          what follows an exchange that waits for the wheels/tracks question
    G_CC_X              that exchange's first unit
    G_CC_Y              its second unit
    G_CC_RXY            the first unit's role against the second
    G_CC_RYX            the second's against the first
    G_CC_TRACKS         1: the infantry in it attacks the wheels/tracks (12.9, revised 12.5)
    G_CC_XF             its situation flags
    G_EMERG             passengers waiting for their emergency disembark (10.10.3, 12.10)
    G_SMK_UNIT          7.5, a smoke action in progress: the firer
    G_SMK_MASK          the dice set aside, a bit per die
    G_SMK_K             hexes smoked so far
    G_SMK_H0            the target hex
    G_SMK_H1            the second hex, -1 none yet
    G_SMK_SEER          the hex whose line of sight counts (the firer's or the spotter's)
    G_ODD_OBJ           organisation phases that left an objective held alone by a side not its owner (a check)
    G_CC_FROM           the hex the unit entering a close combat (12.1, 12.2) came from (12.7.3, 12.8.2)
    G_CC_TGT            first edition: the enemy unit a reinforcing unit attacks (12.2), -1 none
""")

# unit status (U_ST)
_STATUS = """
    ABSENT          absent
    PENDING         pending
    ONMAP           on map
    CARRIED         carried
    ELIMINATED      eliminated
    TO_PLACE        to place
"""
declare(globals(), _STATUS)
STATUS_NAMES = labels(_STATUS)

# action status markers (U_ACT, 13.2)
_ACT = """
    ACT_NONE        -
    ACT_NORMAL      normal
    ACT_FAST        fast
    ACT_DELAYED     delayed
    ACT_DIGGING     digging in
    ACT_FIRING      firing
    ACT_TURRET      turret firing
    ACT_MOVEFIRE    move and fire
    ACT_FIREMOVE    fire and move
"""
declare(globals(), _ACT)
ACT_NAMES = labels(_ACT)

# close-combat markers (U_CC, 12.1-12.3, 13.1)
declare(globals(), """
    CC_NONE         not in a close combat
    CC_ACTIVE       in a close combat this turn
    CC_INACTIVE     in a close combat from an earlier turn (12.3)
""")

# phases (chapter 6)
_PHASES = """
    PH_SETUP            set-up
    PH_PLANNING         planning
    PH_SUPPORT          support
    PH_ACTION           action
    PH_ORGANISATION     organisation
    PH_OVER             over
"""
declare(globals(), _PHASES)
PHASE_NAMES = labels(_PHASES)

# sub-states (G_SUB): which decision is pending, or which automatic step comes next
_SUBS = """
    SUB_TURN_START      turn start
    SUB_PLACE           placement
    SUB_PLAN            planning
    SUB_SUPPORT         support
    SUB_SELECT          select
    SUB_MOVE            move
    SUB_REACT           reaction
    SUB_AFTER_MOVE      fire after move
    SUB_FALLBACK        fallback
    SUB_CC_PICK         close-combat target
    SUB_CC_WITHDRAW     withdraw?
    SUB_ORG             organisation
    SUB_END             end
    SUB_FORMATION       formation
    SUB_ACT_END         activation end
    SUB_CC_RESOLVE      close combat
    SUB_SETUP_ORDER     set-up order
    SUB_SMOKE_NEXT      next smoke hex
"""
declare(globals(), _SUBS)
SUB_NAMES = labels(_SUBS)

# movement modes (G_MODE)
declare(globals(), """
    MODE_NORMAL         a normal move (9.1)
    MODE_FAST           a fast move (9.2)
    MODE_MOVEFIRE       move and fire (9.3)
    MODE_FIREMOVE       fire and move (9.4)
    MODE_WITHDRAW       leaving a close combat (12.6, revised 12.1.6.1)
    MODE_REVERSE        a vehicle reversing (9.10)
""")

# --- action kinds (see action(): kind | unit << 8 | arg << 16) -------------------------
_KINDS = """
    K_PASS          pass
    K_MOVE          move
    K_FAST          fast move
    K_MOVEFIRE      move and fire
    K_FIREMOVE      fire and move
    K_FIRE          fire
    K_TURRET        turret fire
    K_DIG           dig in
    K_RENEW         renew close combat
    K_WITHDRAW      withdraw from close combat
    K_STEP          step
    K_STOP          stop
    K_REACT         reaction fire
    K_NOREACT       no reaction
    K_TARGET        fire at
    K_NOFIRE        no fire
    K_PLACE         place
    K_CCPICK        attack in close combat
    K_STAY          stay in close combat
    K_LEAVE         leave close combat
    K_FORM          formation
    K_CP            command point
    K_CPDONE        command points done
    K_SETUP_FIRST   set up first
    K_TURN          turn
    K_REVERSE       reverse
    K_TRACKS        attack the wheels or tracks
    K_VEHICLE       attack the vehicle
    K_DISMOUNT      dismount
    K_LOAD          load
    K_DISEMBARK     emergency disembark
    K_INDIRECT      indirect fire
    K_SMOKE         smoke
    K_ART_FACE      face artillery
    K_SMOKE_HEX     smoke hex
    K_SMOKE_DONE    no more smoke
    K_INTO_CC       disembark into the close-combat hex
"""
declare(globals(), _KINDS)
KIND_NAMES = labels(_KINDS)
# Arguments: a hex, a unit or a vertex, except K_PLACE (place_arg: hex and facing), and
# K_INDIRECT and K_SMOKE (spotted_arg: the target unit or hex and the spotter, 7.2):
# see the encode/decode functions below.
# K_INTO_CC: 12.10 (first edition), this infantry passenger disembarks into the close-combat hex.

# victory reasons; R_TRUNCATED: the game was cut short at the batch's decision limit, not
# over (set in the per-game record only, with winner NO_WINNER: neither side, not a draw)
_REASONS = """
    R_NONE              none
    R_OBJECTIVES        objectives
    R_ELIMINATION       elimination
    R_SUDDEN_DEATH      sudden death
    R_DRAW              draw
    R_TURN_LIMIT        turn limit
    R_TRUNCATED         truncated
"""
declare(globals(), _REASONS)
REASON_NAMES = labels(_REASONS)
NO_WINNER = -2          # the winner of a game that is not over (-1 is a draw)
NO_FACING = 7           # K_PLACE's facing for a unit placed without one (infantry, 5.8)
INDIRECT_SCALE = 256    # spotted_arg's scale for K_INDIRECT (a unit)
SMOKE_SCALE = 65536     # and for K_SMOKE (a hex)

MAX_PATH = 32
MAX_QUEUE = 16

# hex fields (hx[hex, field])
HX_FIELDS = declare(globals(), """
    HX_SMOKE        smoke markers (7.5, 6.5)
    HX_DUG          1: a dug-in marker (9.8.1)
    HX_OCC*2        HX_OCC + side: units of that side standing there (stacking, 9.0)
    HX_LOST*2       HX_LOST + side: that side's units eliminated here (a batch's heat map; not reset by a new game)
    HX_SHOT*2       HX_SHOT + side: attack rolls at that side's units here (heat map; kept across games)
    HX_CC*2         HX_CC + side: close combats that side started here (heat map; kept across games)
""")
# rows of aux[row, :]
AUX_ROWS = declare(globals(), """
    AUX_PATH        the hexes of the move in progress
    AUX_FBPATH      the hexes of the fallback in progress
    AUX_QUEUE       units waiting to fall back (13.3)
    AUX_OBJ         who holds each objective, -1 nobody (9.7)
    AUX_FST         each formation card: 0 in the deck, 1 drawn, 2 kept, 3 set aside, 4 reinforcement
    AUX_OBJT*2      AUX_OBJT + side, column turn - 1: bit k, it held objective k at that turn's end; -1 not ended
""")


@rule_plain
def place_arg(h, f):
    """K_PLACE's argument: hex ``h``, facing vertex ``f`` (``NO_FACING`` for infantry, 5.8)."""
    return h * 8 + f


@rule_plain
def place_hex(arg):
    return arg // 8


@rule_plain
def place_facing(arg):
    return arg % 8


@rule_plain
def spotted_arg(target, spotter, scale):
    """K_INDIRECT's (``scale`` INDIRECT_SCALE: ``target`` a unit) or K_SMOKE's (SMOKE_SCALE:
    ``target`` a hex) argument: the target and the spotter, -1 when the firer sees it (7.2)."""
    return target + scale * (spotter + 1)


@rule_plain
def spotted_target(arg, scale):
    return arg % scale


@rule_plain
def spotted_spotter(arg, scale):
    return arg // scale - 1


def decode(a: int) -> tuple[int, int, int]:
    """``(kind, unit, arg)`` of an action, for Python code (the compiled functions above
    have no Python wrapper; their ``py_func`` is the same code in Python)."""
    a = int(a)
    return a_kind.py_func(a), a_unit.py_func(a), a_arg.py_func(a)


def encode(kind: int, unit: int = 0, arg: int = 0) -> int:
    """An action from its parts, for Python code."""
    return action.py_func(int(kind), int(unit), int(arg))


# the damage rules' constants, as the engine passes them (simulator.games.assault.rules.damage)
STEADY, SUPPRESSED, FALLBACK = 0, 1, 2
INFANTRY, ARTILLERY, VEHICLE = 0, 1, 2
NIL = 0
TRUE, FALSE = 1, 0


class GameState(NamedTuple):
    u: np.ndarray        # int64[units, U_FIELDS]
    g: np.ndarray        # int64[G_FIELDS]
    hx: np.ndarray       # int64[hexes, HX_FIELDS]: smoke, dug in, units of side 0, of side 1
    aux: np.ndarray      # int64[AUX_ROWS, width]: move path, fallback path, fallback queue,
                         #   objective holders (-1 nobody), formation cards' fate
    cp: np.ndarray       # int64[2, types, 2] command points assigned / spent per card (6.2.2)
    rng: np.ndarray      # uint64[3, 4]
    log: np.ndarray      # int32[cap, EV_FIELDS]


def empty_state(n_units: int, n_hex: int, n_obj: int, n_types: int, n_forms: int = 1,
                log_cap: int = 1, n_turns: int = 1) -> GameState:
    width = max(MAX_PATH, MAX_QUEUE, n_obj, n_forms, n_turns, 1)
    aux = np.zeros((AUX_ROWS, width), dtype=np.int64)
    aux[AUX_OBJ, :] = -1
    aux[AUX_OBJT:AUX_OBJT + 2, :] = -1
    return GameState(
        u=np.zeros((n_units, U_FIELDS), dtype=np.int64),
        g=np.zeros(G_FIELDS, dtype=np.int64),
        hx=np.zeros((n_hex, HX_FIELDS), dtype=np.int64),
        aux=aux,
        cp=np.zeros((2, max(1, n_types), 2), dtype=np.int64),
        rng=np.zeros((3, 4), dtype=np.uint64),
        log=np.zeros((max(1, log_cap), EV_FIELDS), dtype=np.int32),
    )


int64_constants(globals())
