"""The words the command line and the library share, defined once, in a module that
imports nothing heavy: the CLI builds its options from these without loading numpy,
numba or pandas, so ``--help`` answers at once.

Each name is re-exported by the module that owns the rule (``assault.aid``,
``assault.pools``, ``assault.melee.situation`` ...); this is their one definition.
"""

from __future__ import annotations

# --- output and runs -------------------------------------------------------------------
FORMATS = ("table", "csv", "json")
MAX_TRIALS = 2**63 - 1        # counts are 64-bit integers: no run may have more trials than this
MAX_GAMES = 100_000_000       # a scenario batch keeps a few bytes per game in memory for its report
OUT_FILE_SUFFIXES = (".json", ".csv", ".txt", ".tsv", ".md")   # --out NAME.json: the --format text, one file
OUT_PICTURE_SUFFIXES = (".png",)                                  # --out NAME.png: one picture

# --- the balance verdict (simulator.run.verdicts, docs/statistics.md): balanced when the
# 95% interval of the first side's share of decisive games lies within 50% ± this many points
DEFAULT_MARGIN_POINTS = 5
DEFAULT_MAX_GAMES = 100_000     # --until-decided: the most games it plays

# --- the skill curve (simulator.engine.core.balance): both sides at each level, weakest
# first, then the second family (DEFAULT_FAMILY). Chosen so that the default curve of every
# shipped scenario takes at most 15 minutes on a 2-core machine (issue 41 item 6; the
# figures and the choice: docs/strength.md, "The default skill curve"). Its top is the tree
# search at 64 simulations scoring its leaves by the scenario's learned value (issue 41
# item 2; fitted once and cached); mcts:256 and 800 games a level, the default before,
# took about 155 min on Ridge Line. 200 games a level is too few for the convergence test
# to say "converged" at a 5-point margin unless few games change between the top two
# levels: the curve then says "undecided" with the games a level that would most likely
# decide it (--games)
DEFAULT_LEVELS = ("random", "greedy", "lookahead", "mcts:64:learned")
DEFAULT_CURVE_GAMES = 200       # games per level when --games is not given
# the skill curve's second search family (--family; issue 41 item 3): UCT with random playouts,
# none of greedy's priors or value (simulator.engine.players.uct; its budget: docs/strength.md)
# uct's defaults (here, not in the compiled players' modules: Python-side values, passed at run time)
DEFAULT_UCT_SIMS = 32           # a plain ``uct``'s simulations per decision
DEFAULT_UCT_C = 100             # its UCT1 exploration constant, hundredths (values are 0/1 outcomes)
DEFAULT_UCT_HORIZON = 0         # its random playouts: to the end of the turn this many turns on (-1: the game's end)
DEFAULT_FAMILY = f"uct:{DEFAULT_UCT_SIMS}"

# --- Assault ----------------------------------------------------------------------------
EXPERIENCE_LEVELS = ("recruit", "regular", "hardened", "veteran", "elite")   # 4.2.3
EDITIONS = ("v1", "v2")       # close combat: rule book 1.0 chapter 12, or the revised chapter (004)
EDITION_NAMES = {"v1": "first edition (rule book 1.0, chapter 12)",
                 "v2": "revised chapter 12 (004)"}
AREAS = ("front", "flank", "rear")             # where a unit enters a close combat (12.x)
VEHICLE_FACINGS = ("front", "flank", "rear")   # the armour a shot hits (10.10)
# fire statuses of a firer (10.0, 10.9.4), then their short aliases
FIRE_STATUSES = ("firing", "turret-firing", "move-and-fire", "fire-and-move")
FIRE_STATUS_ALIASES = {**{s: s for s in FIRE_STATUSES},
                       "turret": "turret-firing", "move-fire": "move-and-fire", "fire-move": "fire-and-move"}
UNIT_TYPES = ("infantry", "artillery", "vehicle")   # 4.2: the unit types of the cards
# status markers a target may carry (13.1-13.3) that change ranged fire
TARGET_STATUSES = ("fast", "digging-in", "dug-in", "suppressed", "fallback", "delayed", "fired",
                   "fired-and-moved", "immobilised")
SUPPRESSED_OR_WORSE = "p_suppressed_fallback_or_eliminated"   # "P(suppressed, fallback or eliminated)"
OLD_SUPPRESSED_OR_WORSE = "p_suppressed_or_worse"   # its name before issue 43: still in the JSON, deprecated
DEPRECATED_KEYS = {OLD_SUPPRESSED_OR_WORSE: f"renamed {SUPPRESSED_OR_WORSE} (issue 43), as the tables print it: "
                                            "P(suppressed, fallback or eliminated); the old key will be removed"}
METRICS = ("p_eliminated", "p_suppressed_fallback_or_eliminated", "mean_damage")   # what matrix heatmaps show

# withdrawal policies of the revised close combat (rulings #10): name -> (code, meaning)
NEVER, HALF_STRENGTH, AT_HALF, WEAKER = 0, 1, 2, 3
WITHDRAW_POLICIES = {
    "never": (NEVER, "never withdraws"),
    "half-strength": (HALF_STRENGTH, "withdraws when at half strength and an enemy unit in the hex is not"),
    "at-half": (AT_HALF, "withdraws as soon as it is at half strength"),
    "weaker": (WEAKER, "withdraws when it has fewer strength points left than the strongest enemy unit"),
}
DEFAULT_WITHDRAW_POLICY = "half-strength"

# --- Tide of Iron -----------------------------------------------------------------------
HIT_POLICIES = ("vehicles-first", "squads-first")   # who takes assault hits first (rulings T13)
