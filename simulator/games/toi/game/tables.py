"""A Tide of Iron scenario compiled for the engine: every rules constant as integer arrays.

:class:`Tables` is what the ``njit`` rules read, as Assault's
:class:`simulator.games.assault.game.tables.Tables`: the map (terrain, elevation, cover,
movement costs per hex side, line of sight between every two hexes), the figure types
of ``units.toml``, the unit slots of the scenario, objectives, and the parameters
(rounds, actions per player turn, first initiative). Built by
:func:`simulator.games.toi.game.scenario.compile_scenario`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simulator.engine.core.compiling import int64_constants
from simulator.engine.core.fields import declare

HI_FIELDS = declare(globals(), """
    HI_TERRAIN      the main terrain (index into the scenario's terrain names)
    HI_ELEV         elevation level 0, 1 or 2 (001 Range: elevation)
    HI_COVER        cover dice of the hex for squads (001 step 2; terrain.toml cover)
    HI_OBJ          the objective here, -1 none
    HI_ZONE         bit per deployment zone the hex belongs to (001 Setup)
    HI_STAND        1: a squad may be in the hex (001 Terrain: pond, flooded stream impassable)
    HI_ROAD         1: a road runs through it (001 Terrain: Road)
    HI_FORT         the scenario's fortification markers (entrenchments or pillboxes), one squad each (001 Entrenchments & pillboxes; the state's HX_FORT adds those dug)
    HI_FORT_COVER   the cover a squad in one of them adds (entrenchment 2, pillbox 6; terrain.toml); an entrenchment's where the scenario puts none (one may be dug, rulings T40)
    HI_MINES        1: a minefield (001 Minefields)
    HI_WIRE         1: razor wire (001 Razor wire)
    HI_TRAP         the cover a tank trap gives squads here, 0 none (001 Tank traps)
    HI_HAS_TRAP     1: a tank trap
    HI_NO_MORTAR    1: mortars cannot fire from here (a building; 001 Mortar crew)
    HI_CONCUSSIVE   1: tanks get Concussive Firepower against squads here (a building; terrain.toml)
    HI_PILLBOX      1: its fortifications are pillboxes (Concussive Firepower against squads in them)
    HI_NO_SMOKE     1: no smoke marker may be here (a building; terrain.toml no_smoke; 001 Smoke)
    HI_SMOKE        1: a smoke marker at the start (the scenario's ``smoke``; 001 Smoke; rulings T36)
    HI_NO_DIG       1: no entrenchment may be dug here (terrain.toml no_dig; 001 Engineer: Dig Entrenchment; rulings T40)
""")

S6_FIELDS = declare(globals(), """
    S6_NBR          the hex across this side, -1 off the map
    S6_COST         MPs a squad pays to cross into it, -1 impassable (001 Terrain; Movement)
    S6_VCOST        MPs a vehicle pays, -1 impassable (001 Terrain)
""")

FT_FIELDS = declare(globals(), """
    FT_MOVE         movement value (001 unit stats, MV)
    FT_IRANGE       range against infantry
    FT_IFPR         firepower against infantry
    FT_VRANGE       range against vehicles
    FT_VFPR         firepower against vehicles
    FT_HEAVY        1: heavy infantry weapon (001 MG / Mortar crew: Limited Choice of Actions)
    FT_OFFICER      1: an officer (001 Officer abilities)
    FT_HARDENED     cover per figure against suppressive fire (001 Elite: Battle-Hardened)
    FT_RAPID        1: Rapid Op Fire (001 Machine gun crew)
    FT_AREA         1: fires area attacks only (001 Mortar crew; rulings T34, T42)
    FT_LOSS_ORDER   row i: the i-th figure type a squad loses to hits (rulings T24)
""")

VT_FIELDS = declare(globals(), """
    VT_MOVE         movement value (001 unit stats, MV)
    VT_ARMOUR       armour value (AV)
    VT_THICK        1: Thick Armor (001 Tanks)
    VT_IRANGE       range against infantry
    VT_IFPR         firepower against infantry
    VT_VRANGE       range against vehicles
    VT_VFPR         firepower against vehicles
    VT_LIGHT        1: a light vehicle (001 Trucks, Half-tracks), 0 heavy (Tanks)
    VT_FRAGILE      1: destroyed if heavily damaged (001 Trucks: Fragile)
    VT_STURDY       1: not fatigued if lightly damaged by op fire (001 Tanks: Sturdy)
    VT_CONCUSSIVE   1: Concussive Firepower (001 Tanks)
    VT_OVERRUN      1: Overrun (001 Tanks)
    VT_TRANSPORT    squads it may carry (001 Trucks: Transport (2); Half-tracks: Transport (1))
""")

OB_FIELDS = declare(globals(), """
    OB_HEX          its hex
    OB_CMD          command tokens a round to the side controlling it (001 Receive command)
    OB_VP           victory points a round to the side controlling it (001 Receive victory points)
    OB_NATION       -1 neutral, else the side whose command objective it is (001 Command objectives)
""")

SL_FIELDS = declare(globals(), """
    SL_SIDE         its side
    SL_ZONE         its deployment zone (001 Setup), or its reinforcement zone
    SL_SPEC         its specialisation: SPEC_NONE, SPEC_ENGINEER, SPEC_ANTI_TANK, SPEC_FLAMETHROWER, SPEC_MEDIC
    SL_VEHICLE      1: a vehicle (SL_MODEL says which), 0 a squad
    SL_MODEL        the vehicle model (a row of vt), -1 for a squad
    SL_HIDDEN       1: a concealed squad (the scenario's ``concealed``; 001 Concealed squads; rulings T39)
    SL_ARRIVE       0: on the map from the set-up; r: a reinforcement placed in the status phase of round r (001 Status phase, 5)
    SL_FIG*8        SL_FIG + figure type: figures of that type (001 Setup: build squads)
""")

P_FIELDS = declare(globals(), """
    P_N_UNITS       unit slots
    P_N_HEX         hexes
    P_N_OBJ         objectives
    P_N_FIG         figure types
    P_ROUNDS        rounds of the scenario (001 Advance the round marker)
    P_ACTIONS       actions per player turn (001 Action phase: as the scenario says)
    P_INIT          the side with the initiative at the start (001 Setup)
    P_STACK         units a hex holds (001 Setup: stacking, three)
    P_DETERMINATION cover against suppressive fire with an officer in the hex (001 Officer: Determination)
    P_HIGHER        range bonus from higher ground (001 Range)
    P_MOBILITY      movement bonus of a squad with an officer (001 Officer: Increased Mobility)
    P_MAX_SUPPORT   squads that may support an assault (002 step 1)
    P_FORT_MP       MPs to enter or leave a fortification (001 Entrenchments & pillboxes)
    P_MINE_DICE     dice a unit entering a minefield rolls against itself (001 Minefields)
    P_MINE_FROM     the face from which they hit
    P_VEH_STACK     vehicles a hex holds (001 Setup: stacking, two)
    P_MORTAR_MIN    mortars' shortest distance (001 Mortar crew: Minimum Distance)
    P_TRANSPORT_MP  MPs a squad pays to enter or exit a vehicle (001 Transporting squads, 2)
    P_ENG_MINES     1: engineers do not roll entering a minefield (units.toml)
    P_AT_RANGE      anti-tank: base range against vehicles (001 Armor-Piercing Weaponry)
    P_AT_FPR        anti-tank: FPR bonus against vehicles
    P_FLAME_FPR     flamethrower: FPR bonus against an adjacent unit (001 Flaming Death; 002 step 2)
    P_FLAME_CUT     flamethrower: cover taken off the target (not below 0)
    P_FLAME_DIST    flamethrower: the farthest target (adjacent)
    P_FLAME_SUPPORT 1: a supporting flamethrower squad has its bonus too (rulings T4)
    P_MEDIC_COVER   medic: cover against normal attacks for squads in its hex (001 Bandage)
    P_MEDIC_ASSAULT how Bandage counts in an assault's cover dice: 0 none, 1 once for the hex, 2 per squad (rulings T11)
    P_CONC_FPR      Concussive Firepower: FPR bonus (units.toml)
    P_CONC_RANGE    Concussive Firepower: range bonus
    P_SQUAD_MAX     figures a squad base holds (units.toml squads.max_figures; rulings T17)
    P_SMOKE_COVER   cover of a smoke hex (001 Smoke, +2; terrain.toml)
    P_SMOKE_ASSAULT 1: smoke adds its cover once to an assault's cover dice (terrain.toml assault_cover; rulings T10)
    P_WIRE_MP       MPs an engineer or a tank pays to remove razor wire in its hex (001 Razor wire, 2)
    P_REGULAR       the figure type Heal puts back (units.toml "regular"), -1 none (001 Medic: Heal)
    P_HEAL_FROM     the face from which Heal's die succeeds (001 Medic: 4, 5 or 6)
    P_WIRE_AREA     successes of an area attack that remove razor wire (001 Razor wire, 3; rulings T8)
    P_DIG_SPECS     bit per specialisation (SPEC_*) whose squads may dig entrenchments (units.toml dig_entrenchment; 001 Engineer; rulings T40)
    P_FORT_MAX      fortification markers a hex may hold (001 Entrenchments & pillboxes; Engineer: 3)
""")


SPEC_NONE, SPEC_ENGINEER, SPEC_ANTI_TANK, SPEC_FLAMETHROWER, SPEC_MEDIC = -1, 0, 1, 2, 3
SPEC_NAMES = ("engineer", "anti_tank", "flamethrower", "medic")      # simulator.games.toi.rules.units.SPECIALISATIONS


class Tables(NamedTuple):
    hexi: np.ndarray      # int64[n, HI_FIELDS]
    side6: np.ndarray     # int64[n, 6, S6_FIELDS]
    los: np.ndarray       # int64[n, n]: 1 when a unit in a sees a unit in b (001 Line of sight)
    los_smoke: np.ndarray  # int64[n, n]: the same while the scenario's smoke is on the map (001 Smoke: blocking)
    dist: np.ndarray      # int64[n, n]: hexes between
    ft: np.ndarray        # int64[figure types, FT_FIELDS]
    vt: np.ndarray        # int64[vehicle models, VT_FIELDS]
    slots: np.ndarray     # int64[units, SL_FIELDS]
    obj: np.ndarray       # int64[objectives, OB_FIELDS]
    p: np.ndarray         # int64[P_FIELDS]


int64_constants(globals())
