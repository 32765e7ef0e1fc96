"""The game state of a Tide of Iron scenario as a few integer arrays (001 Turn sequence).

As in Assault (:mod:`simulator.games.assault.game.state`), a game is a :class:`GameState`
named tuple of numpy arrays, so the rules run in numba and a player copies a state
cheaply:

- ``u[unit, field]``: one row per unit slot (``U_*``): side, where, the figures of a
  squad (one count per figure type of ``units.toml``), condition, activation token;
- ``g[field]``: the round, the phase, who decides, the activation in progress (``G_*``);
- ``hx[hex, field]``: units of each side in the hex (stacking, 001 Setup), control;
- ``aux``: the hexes of the move in progress, objective control (-1 nobody);
- ``rng[3, 4]``: xoshiro256** states: 0 the dice, 1 and 2 the two players' own draws;
- ``heat[hex, field]``: the batch's heat map (units lost, attacked, assaults by hex);
- ``log[n, 8]``: events for replays (written only when ``g[G_LOG_ON]``).

Actions are ints: ``kind | unit << 8 | arg << 16`` (:func:`action`), as in Assault.
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

MAX_FIG = 8             # figure types a squad may hold (units.toml figures)

# --- unit fields (u[unit, field]) -----------------------------------------------------
U_FIELDS = declare(globals(), """
    U_SIDE          0 or 1
    U_ST            status: ABSENT, TO_PLACE, ONMAP, DESTROYED
    U_HEX           the hex it stands in, -1 none
    U_ZONE          its deployment zone (001 Setup)
    U_COND          COND_NORMAL, COND_PINNED, COND_DISRUPTED (001 Squad conditions)
    U_TOKEN         TOK_FRESH, TOK_FATIGUED, TOK_OPFIRE (001 Action phase)
    U_OPHEX         the hex in which it was last the target of op fire in this move, -1 none
    U_IN            1: in a fortification of its hex (001 Entrenchments & pillboxes)
    U_SPEC          its specialisation (tables.SPEC_*), -1 none (001 Specialized squads)
    U_CARRIER       the vehicle carrying this squad, -1 none (001 Transporting squads in vehicles)
    U_VEHICLE       1: a vehicle, 0 a squad
    U_MODEL         its vehicle model, -1 for a squad
    U_RAPID*4       bits: the units this squad has op-fired at with its MG crews alone this round (001 MG crew: Rapid Op Fire)
    U_DMG           a vehicle's damage: DMG_NONE, DMG_LIGHT, DMG_HEAVY (001 Normal attack results)
    U_HIDDEN        1: concealed (001 Concealed squads; set by the scenario, rulings T39)
    U_WOUNDS        figures the squad has lost to hits and not got back by Heal (001 Medic: Heal; rulings T38)
    U_XFER          bits: the figure types it gave (bit 2f) or received (bit 2f+1) in this status phase's transfers (001 Status phase, 4; rulings T35)
    U_MARK          1: supports the area attack being resolved (scratch, 0 between decisions; rulings T42)
    U_FIG*8         U_FIG + figure type: figures of that type in the squad (001 Setup: build squads)
""")

# --- global fields (g[field]) ---------------------------------------------------------
G_FIELDS = declare(globals(), """
    G_ROUND             the round, from 1 (001 Setup: round marker on space 1)
    G_PHASE             the phase (PH_*)
    G_SUB               the pending decision or the next automatic step (SUB_*)
    G_ACTIVE            the side whose action turn it is (001 Action phase)
    G_INIT              the side with the initiative (001 Setup; Determine initiative)
    G_LEFT              actions left in the active side's action turn
    G_OUT0*2            G_OUT0 + side: 1 when that side has ended its action phase (001 End of the action phase)
    G_DECIDER           the side that decides now, -1 nobody (automatic step or game over)
    G_UNIT              the active unit, -1 none
    G_ACTION            the action it was activated with (K_ADVANCE, K_FIREMOVE, K_ASSAULT)
    G_MP                movement points left
    G_FIRED             1: the active unit has fired in this Fire & Movement action
    G_MOVED             1: it has entered a hex in this activation
    G_PATHN             hexes entered in the move so far (aux[AUX_PATH])
    G_OPF_SIDE          the side deciding op fire now (SUB_OPFIRE)
    G_WINNER            the winner when the game is over, -1 a draw
    G_REASON            why the game ended (R_*)
    G_OVER              1: the game is over
    G_LOGN              events logged so far
    G_LOG_ON            1: events are logged (replays)
    G_VP0*2             victory points of each side (001 Receive victory points)
    G_CMD0*2            command tokens each side holds, unspent (001 Receive command)
    G_POOL0*2           command on each side's initiative card (001 Increase initiative pool)
    G_PLACER            the side placing units or op-fire tokens now (SUB_PLACE, SUB_SET_OPFIRE)
    G_DECISIONS         decisions taken so far
    G_ACTIONS           actions taken so far (a statistic)
    G_OPFIRES           op fire attacks so far (a statistic)
    G_ASSAULTS          assaults so far (a statistic)
    G_ROUND_LIMIT       the last round (from the scenario)
    G_ADV_HEX           after a successful assault: the vacated hex the active squad may advance into, -1 none
    G_NO_ASSAULT        1: the active squad entered a minefield or razor wire in this move (002 first list)
    G_OPN               hexes in aux[AUX_OPHEX]
    G_DMG0              the active vehicle's damage when its activation began
    G_STURDY            1: its damage since came lightly from op fire, and it is Sturdy (001 Tanks)
    G_SMOKE             smoke markers on the map (rulings T36: the scenario's, until the first status phase)
""")

_STATUS = """
    ABSENT          absent
    TO_PLACE        to place
    ONMAP           on map
    DESTROYED       destroyed
    LOST            lost (a reinforcement with no room)
    CARRIED         carried in a vehicle (U_CARRIER; U_HEX -1)
    EMPTIED         removed: its base emptied by squad transfers (001 Status phase, 4)
"""
declare(globals(), _STATUS)
STATUS_NAMES = labels(_STATUS)

_COND = """
    COND_NORMAL     normal
    COND_PINNED     pinned
    COND_DISRUPTED  disrupted
"""
declare(globals(), _COND)          # the same order as simulator.games.toi.rules.results.SQUAD_STEPS
COND_NAMES = labels(_COND)

_TOKEN = """
    TOK_FRESH       fresh
    TOK_FATIGUED    fatigued
    TOK_OPFIRE      op fire
"""
declare(globals(), _TOKEN)
TOKEN_NAMES = labels(_TOKEN)

_PHASES = """
    PH_SETUP        set-up
    PH_ACTION       action
    PH_COMMAND      command
    PH_STATUS       status
    PH_OVER         over
"""
declare(globals(), _PHASES)
PHASE_NAMES = labels(_PHASES)

_SUBS = """
    SUB_PLACE       deployment
    SUB_SET_OPFIRE  op-fire placement
    SUB_SELECT      select an action
    SUB_MOVE        move
    SUB_OPFIRE      op fire
    SUB_AFTER_MOVE  fire after moving
    SUB_ASSAULT     assault target
    SUB_ADVANCE     advance after assault
    SUB_ROUND_END   round end
    SUB_TRANSFER    squad transfers
"""
declare(globals(), _SUBS)
SUB_NAMES = labels(_SUBS)

# --- action kinds (kind | unit << 8 | arg << 16) ---------------------------------------
_KINDS = """
    K_PASS          end action phase
    K_ADVANCE       advance
    K_FIRE          concentrated fire
    K_FIREMOVE      fire and movement
    K_ASSAULT       assault action
    K_PREP_OPFIRE   prepare op fire
    K_FATIGUE       fatigue unit
    K_STEP          step
    K_STOP          stop
    K_SHOOT         fire at
    K_NOFIRE        no fire
    K_OPFIRE        op fire
    K_NO_OPFIRE     no op fire
    K_ATTACK_HEX    assault hex
    K_NO_ASSAULT    no assault
    K_ENTER         advance into the hex
    K_STAY          stay
    K_PLACE         place
    K_SET_OPFIRE    set op fire
    K_OPFIRE_DONE   op-fire placement done
    K_FORT_IN       enter the fortification
    K_FORT_OUT      leave the fortification
    K_EMBARK        enter the vehicle
    K_DISEMBARK     exit the vehicle
    K_AREA          area attack
    K_CUT_WIRE      remove the razor wire
    K_HEAL          heal
    K_TRANSFER      transfer a figure
    K_TRANSFER_DONE squad transfers done
    K_DIG           dig an entrenchment
    K_PLACE_IN      place in a vehicle
"""
declare(globals(), _KINDS)
KIND_NAMES = labels(_KINDS)
# K_FIRE, K_SHOOT, K_OPFIRE: arg = target unit | mode << 8 | support << 9 (fire_arg);
# K_AREA: arg = hex * 2 + mode, | AREA_SUPPORT when supported (area_arg; 001 Area attacks; Mortar crew; rulings T42)
# K_DIG: arg 1: the squad also enters the entrenchment it dug (001 Engineer: Dig Entrenchment; rulings T40)
# K_PLACE_IN: unit = the squad, arg = the vehicle it sets up in (001 Setup; rulings T41)
# K_HEAL: arg = the wounded squad (the medic squad itself or one in its hex)
# K_TRANSFER: unit = the squad giving, arg = the squad receiving | figure type << 8 (transfer_arg)
# K_OPFIRE's arg | FIRE_RAPID: the MG crews alone fire, and the squad stays in op fire mode (Rapid Op Fire)
MODE_NORMAL, MODE_SUPPRESSIVE = 0, 1            # 001 step 3: declare attack type

_REASONS = """
    R_NONE              none
    R_VICTORY_POINTS    victory points
    R_ELIMINATION       elimination
    R_TRUNCATED         truncated
"""
declare(globals(), _REASONS)
REASON_NAMES = labels(_REASONS)
NO_WINNER = -2
MAX_PATH = 32

HX_FIELDS = declare(globals(), """
    HX_OCC*2        HX_OCC + side: units of that side in the hex (stacking, 001 Setup)
    HX_VEH*2        HX_VEH + side: vehicles of that side in the hex (two at most)
    HX_SMOKE        1: a smoke marker (001 Smoke; from the scenario, rulings T36)
    HX_WIRE         1: razor wire (001 Razor wire; removed by engineers and tanks, rulings T37)
    HX_FORT         fortification markers: the scenario's, and entrenchments dug since (001 Engineer: Dig Entrenchment; rulings T40)
""")

# --- the batch's heat map (heat[hex, field]): no rule reads it, a state's copy leaves it --
HEAT_FIELDS = declare(globals(), """
    HT_LOST*2       HT_LOST + side: that side's units destroyed here (kept across games)
    HT_SHOT*2       HT_SHOT + side: attacks at that side's units here (kept across games)
    HT_CC*2         HT_CC + side: assaults that side made on this hex (kept across games)
""")
DMG_NONE, DMG_LIGHT, DMG_HEAVY = 0, 1, 2     # indices into simulator.games.toi.rules.results.VEHICLE_STEPS

AUX_ROWS = declare(globals(), """
    AUX_PATH        the hexes of the move in progress, the start first
    AUX_OBJ         who controls each objective, -1 nobody (001 Determine control)
    AUX_ATT         the assault in progress: the active squad, then its supporters, -1 none
    AUX_DEF         its defending units, -1 none
    AUX_SIZE        the defenders' figures
    AUX_COND        the defenders' conditions
    AUX_HITS        the hits each defender takes
    AUX_KEEP        1: that defender retreats
    AUX_OPHEX       the hexes in which the mover has drawn op fire in this move (G_OPN of them)
    AUX_OBJT*2      AUX_OBJT + side, column round - 1: bit o, it controlled objective o after that round's command phase; -1 not reached
""")


@rule_plain
def fire_arg(target, mode, support):
    """K_FIRE / K_SHOOT / K_OPFIRE's argument: the target unit, normal or suppressive, and
    whether every eligible friendly unit supports (001 Combined fire)."""
    return target | (mode << 8) | (support << 9)


FIRE_RAPID = 1 << 10        # in a K_OPFIRE's argument: the MG crews alone fire (Rapid Op Fire)
AREA_SUPPORT = 1 << 20      # in a K_AREA's argument: every eligible friendly unit supports (rulings T42)


@rule_plain
def area_arg(h, mode, support):
    """K_AREA's argument: the target hex, normal or suppressive, and whether every eligible
    friendly unit supports (001 Area attacks; Combined fire; rulings T42)."""
    return h * 2 + mode + support * AREA_SUPPORT


@rule_plain
def area_hex(arg):
    """The target hex of an :func:`area_arg`."""
    return (arg % AREA_SUPPORT) >> 1


@rule_plain
def area_mode(arg):
    """MODE_NORMAL or MODE_SUPPRESSIVE, of an :func:`area_arg`."""
    return arg & 1


@rule_plain
def area_support(arg):
    """1: supported, of an :func:`area_arg`."""
    return 1 if arg >= AREA_SUPPORT else 0


@rule_plain
def fire_target(arg):
    """The target unit of a :func:`fire_arg`."""
    return arg & 0xFF


@rule_plain
def fire_mode(arg):
    """MODE_NORMAL or MODE_SUPPRESSIVE, of a :func:`fire_arg`."""
    return (arg >> 8) & 1


@rule_plain
def fire_support(arg):
    """1: every eligible friendly unit supports, of a :func:`fire_arg`."""
    return (arg >> 9) & 1


@rule_plain
def fire_rapid(arg):
    """1: the MG crews alone fire (:data:`FIRE_RAPID`), of a K_OPFIRE's argument."""
    return (arg >> 10) & 1


@rule_plain
def transfer_arg(to, fig):
    """K_TRANSFER's argument: one figure of type ``fig`` goes to squad ``to`` (001 Status
    phase, 4: squad transfers)."""
    return to | (fig << 8)


@rule_plain
def transfer_to(arg):
    """The receiving squad of a :func:`transfer_arg`."""
    return arg & 0xFF


@rule_plain
def transfer_fig(arg):
    """The figure type of a :func:`transfer_arg`."""
    return arg >> 8


@rule_plain
def gave_bit(fig):
    """U_XFER's bit: the squad gave figures of type ``fig`` in this status phase."""
    return 1 << (2 * fig)


@rule_plain
def got_bit(fig):
    """U_XFER's bit: the squad received figures of type ``fig`` in this status phase."""
    return 1 << (2 * fig + 1)


class GameState(NamedTuple):
    u: np.ndarray        # int64[units, U_FIELDS]
    g: np.ndarray        # int64[G_FIELDS]
    hx: np.ndarray       # int64[hexes, HX_FIELDS]
    aux: np.ndarray      # int64[AUX_ROWS, width]
    rng: np.ndarray      # uint64[3, 4]
    heat: np.ndarray     # int64[hexes, HEAT_FIELDS] (not copied: statecopy.NOT_COPIED)
    log: np.ndarray      # int32[cap, EV_FIELDS]


def empty_state(n_units: int, n_hex: int, n_obj: int, log_cap: int = 1, n_turns: int = 1) -> GameState:
    width = max(MAX_PATH, n_obj, n_turns, 1)
    aux = np.zeros((AUX_ROWS, width), dtype=np.int64)
    aux[AUX_OBJ, :] = -1
    aux[AUX_OBJT:AUX_OBJT + 2, :] = -1
    return GameState(
        u=np.zeros((n_units, U_FIELDS), dtype=np.int64),
        g=np.zeros(G_FIELDS, dtype=np.int64),
        hx=np.zeros((n_hex, HX_FIELDS), dtype=np.int64),
        aux=aux,
        rng=np.zeros((3, 4), dtype=np.uint64),
        heat=np.zeros((n_hex, HEAT_FIELDS), dtype=np.int64),
        log=np.zeros((max(1, log_cap), EV_FIELDS), dtype=np.int32),
    )


int64_constants(globals())
