"""Position values learned from a scenario's own games (issue 41 item 2; expert
iteration, Anthony, Tian and Barber 2017, with a linear value as in Silver et al.'s
TD-search): play games, record the game's ``features`` at their activations, fit the
chance that side 0 wins (:mod:`simulator.engine.core.valuefit`), check it on held-out
games, keep it in the cache beside the compiled game, and hand it to the searching
players (:mod:`simulator.engine.players.value`; ``mcts:N:learned``, ``lookahead:learned``,
``uct:N:learned``).

The data (:func:`collect`): ``games`` games of the scenario by the given players
(default greedy against greedy) on the batch's seeding (:mod:`simulator.engine.core.seeding`:
game ``k`` of seed ``S`` is the same game whichever worker plays it, and the runner
merges the pieces in order), each activation's decider taking a uniformly random legal
action instead of its player's with chance :data:`EXPLORE` (greedy is deterministic
but for its ties: without it the positions of a scenario follow few lines, and the fit
would learn those lines' results rather than what a position is worth), the features
recorded at every :data:`EVERY`-th activation (at most :data:`PER_GAME` a game), with
the hand-written value there (``evaluate`` and ``outlook``, the baseline) and the game's
result (1 side 0 won, 0 lost, one half a draw; a game cut short is dropped).

The games are played by :mod:`simulator.engine.players.valuedata` (compiled).

The fit (:func:`learn`): a fifth of the games held out (:data:`TEST_SHARE`, by game),
the rest fitted (:func:`simulator.engine.core.valuefit.fit_value`), the held-out
positions scored against two baselines: the hand-written value squashed as ``mcts``
squashes it, and the training games' base rate.

The cache (:func:`cached_path`): a JSON file in the cache folder's ``values/`` (no
pickle), named by a key of the scenario's compiled tables, the code, the fit's settings
and its seed; any change gives another key, and another fit.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from simulator.engine.core import gameapi, valuefit
from simulator.engine.core.seeding import GAMES_PER_CHUNK, chunk_key
from simulator.engine.players.base import MAX_FEATURES, MC_SCALE, MC_VICTORY
from simulator.engine.players.interface import DEFAULT_PARAMS, is_learned, searches
from simulator.engine.players.valuedata import collect_chunk, collect_chunk_searching
from simulator.run import runner
from simulator.run.progress import say

FORMAT = 1              # the JSON's layout
DEFAULT_GAMES = 2000    # games a value is fitted on (docs/strength.md: its time per scenario)
FIT_SEED = 41           # the seed of a value fitted on first use (the run's own seed does not refit it)
EVERY = 3               # positions recorded: every EVERY-th activation
PER_GAME = 24           # and at most this many a game
EXPLORE = 0.1           # the chance that an activation's decider plays a random legal action
TEST_SHARE = 0.2        # games held out to report the calibration
PIECE = 64              # games per runner piece
MAX_DECISIONS = 20000   # as the batch's


# ======================================================================================
# the data
# ======================================================================================


@dataclass
class Data:
    """Recorded positions: features ``x`` (side 0's view), the game of each, side 0's
    score ``y`` in that game, the hand-written value's parts ``base`` (evaluate,
    outlook; side 0's); ``games`` the games played (cut-short ones included)."""

    x: np.ndarray
    game_of: np.ndarray
    y: np.ndarray
    base: np.ndarray
    games: int

    @staticmethod
    def empty(n_features: int) -> "Data":
        return Data(np.zeros((0, n_features)), np.zeros(0, np.int64), np.zeros(0), np.zeros((0, 2)), 0)

    def add(self, other: "Data") -> "Data":
        return Data(np.vstack([self.x, other.x]), np.concatenate([self.game_of, other.game_of]),
                    np.concatenate([self.y, other.y]), np.vstack([self.base, other.base]), self.games + other.games)


def feature_names(game) -> tuple[str, ...]:
    """The game's ``FEATURE_NAMES`` (its registered game API's; the players' scratch
    made first imports, and so registers, the game's API)."""
    state_class = type(game.new_state())
    try:
        api = gameapi.api_of(state_class)
    except KeyError:
        game.player_work()
        api = gameapi.api_of(state_class)
    return tuple(api.FEATURE_NAMES)


def _ready(game) -> None:
    """The game's player API and record hooks registered (``begin`` plays its start)."""
    game.chunk_entry(np.zeros(2, np.int64))
    game.player_work()


def _piece(game, kinds, params, piece_games, n_games, seed_seq, *, every, per_game, explore) -> Data:
    """One runner piece: games ``i * piece_games ...`` of the run (``i`` the piece)."""
    first = int(seed_seq.spawn_key[0]) * piece_games
    run_seed = seed_seq.entropy
    nf = len(feature_names(game))
    feats = np.zeros((n_games, per_game, MAX_FEATURES))
    base = np.zeros((n_games, per_game, 2))
    counts = np.zeros(n_games, np.int64)
    winners = np.zeros(n_games, np.int64)
    s = game.new_state()
    w = game.players.make_work(game)
    entry_ = collect_chunk_searching if searches(kinds) else collect_chunk
    done = 0
    while done < n_games:
        chunk, offset = divmod(first + done, GAMES_PER_CHUNK)
        part = min(n_games - done, GAMES_PER_CHUNK - offset)
        sl = slice(done, done + part)
        entry_(game.tables, chunk_key(run_seed, chunk), np.int64(offset), np.int64(part), kinds, params, s, w,
               np.int64(every), float(explore), feats[sl], base[sl], counts[sl], winners[sl], np.int64(MAX_DECISIONS))
        done += part
    rows_x, rows_g, rows_y, rows_b = [], [], [], []
    for i in range(n_games):
        wn = int(winners[i])
        if wn == -2 or counts[i] == 0 or wn == game.no_winner:
            continue
        score = 1.0 if wn == 0 else (0.0 if wn == 1 else 0.5)
        k = int(counts[i])
        rows_x.append(feats[i, :k, :nf])
        rows_b.append(base[i, :k])
        rows_g.append(np.full(k, first + i, np.int64))
        rows_y.append(np.full(k, score))
    if not rows_x:
        return dataclasses.replace(Data.empty(nf), games=n_games)
    return Data(np.vstack(rows_x), np.concatenate(rows_g), np.concatenate(rows_y), np.vstack(rows_b), n_games)


def collect(game, *, games: int, seed: int, players=("greedy", "greedy"), every: int = EVERY,
            per_game: int = PER_GAME, explore: float = EXPLORE, workers: int | None = None,
            progress: str | None = None) -> Data:
    """The positions of ``games`` games of ``game`` by ``players`` with ``seed`` (the
    module's doc); the same for any number of workers."""
    _ready(game)
    kinds, params = game.players.player_setup(players, DEFAULT_PARAMS)
    task = partial(_piece, game, kinds, params, PIECE, every=every, per_game=per_game, explore=explore)
    opts = runner.RunOptions(workers=workers, backend="thread", progress=progress, unit="game")
    acc = [Data.empty(len(feature_names(game)))]

    def gather(_chunk, data):
        acc[0] = acc[0].add(data)
        return acc[0]

    runner.execute(task, games, seed=seed, options=opts, chunk_trials=PIECE, collect=gather)
    return acc[0]


# ======================================================================================
# the fit, its checks and its cache
# ======================================================================================


def hand_value(base: np.ndarray, params: np.ndarray = DEFAULT_PARAMS) -> np.ndarray:
    """The hand-written value as ``mcts`` scores a leaf (``evaluate`` plus
    ``MC_VICTORY``/100 times ``outlook``, over ``MC_SCALE``/100, squashed): side 0's."""
    value = base[:, 0] + params[MC_VICTORY] / 100.0 * base[:, 1]
    return valuefit.sigmoid(value / (max(int(params[MC_SCALE]), 1) / 100.0))


@dataclass
class Learned:
    """A fitted position value and what it was fitted on (the JSON's content)."""

    names: tuple[str, ...]
    packed: np.ndarray          # [intercept, w...] on the features' own scale (Work.value)
    beta: np.ndarray            # on standardised features
    mean: np.ndarray
    scale: np.ndarray
    lam: float
    settings: dict              # games, seed, players, every, per_game, explore, test_share
    data: dict                  # games, positions, train/test games
    metrics: dict               # held-out: learned, hand-written, base rate: brier, log_loss
    calibration: list           # held-out, by decile (valuefit.calibration)
    seconds: dict = field(default_factory=dict)     # collect, fit
    key: str = ""

    def to_json(self) -> dict:
        return {"format": FORMAT, "key": self.key, "features": list(self.names), "packed": self.packed.tolist(),
                "beta": self.beta.tolist(), "mean": self.mean.tolist(), "scale": self.scale.tolist(),
                "lambda": self.lam, "settings": self.settings, "data": self.data, "metrics": self.metrics,
                "calibration": self.calibration, "seconds": self.seconds}

    @staticmethod
    def from_json(d: dict) -> "Learned":
        if d.get("format") != FORMAT:
            raise ValueError(f"learned value format {d.get('format')!r}, not {FORMAT}")
        return Learned(tuple(d["features"]), np.array(d["packed"], float), np.array(d["beta"], float),
                       np.array(d["mean"], float), np.array(d["scale"], float), float(d["lambda"]), d["settings"],
                       d["data"], d["metrics"], d["calibration"], d.get("seconds", {}), d.get("key", ""))

    def describe(self) -> dict:
        """What a report's JSON names of the value used."""
        return {"features": list(self.names), "games": self.data["games"], "positions": self.data["positions"],
                "fit_seed": self.settings["seed"], "players": self.settings["players"], "key": self.key,
                "held_out": self.metrics}


def settings_of(games: int, seed: int, players=("greedy", "greedy")) -> dict:
    return {"games": int(games), "seed": int(seed), "players": list(players), "every": EVERY, "per_game": PER_GAME,
            "explore": EXPLORE, "test_share": TEST_SHARE, "lambdas": list(valuefit.LAMBDAS)}


def fit(game, data: Data, settings: dict) -> Learned:
    """Fit on ``data``'s training games and check on its held-out ones."""
    t0 = time.perf_counter()
    games = np.unique(data.game_of)
    if len(games) < 10:
        raise ValueError(f"{len(games)} finished games recorded: too few to fit a position value (give more --games)")
    held = valuefit.split_games(len(games), settings["seed"], TEST_SHARE)
    test = np.isin(data.game_of, games[held])
    f = valuefit.fit_value(data.x[~test], data.y[~test], data.game_of[~test], settings["seed"])
    y = data.y[test]
    p = f.probability(data.x[test])
    rate = float(data.y[~test].mean())
    metrics = {"learned": valuefit.scores(p, y), "hand": valuefit.scores(hand_value(data.base[test]), y),
               "base_rate": valuefit.scores(np.full(len(y), rate), y), "train_rate": rate}
    return Learned(feature_names(game), f.packed(), f.beta, f.mean, f.scale, f.lam, settings,
                   {"games": int(data.games), "positions": int(len(data.y)), "train_games": int((~held).sum()),
                    "test_games": int(held.sum()), "test_positions": int(test.sum())},
                   metrics, valuefit.calibration(p, y), {"fit": time.perf_counter() - t0})


def _tables_digest(game) -> str:
    h = hashlib.sha256()
    h.update(f"{type(game).__module__}|{getattr(game, 'name', '')}|{getattr(game, 'edition', '')}".encode())
    for name, arr in zip(game.tables._fields, game.tables, strict=True):
        if isinstance(arr, np.ndarray):
            h.update(name.encode())
            h.update(str(arr.shape).encode())
            h.update(np.ascontiguousarray(arr).tobytes())
    return h.hexdigest()


def cache_key(game, settings: dict) -> str:
    """The scenario (its compiled tables), the code and the fit's settings and seed."""
    from simulator.run.checkpoint import code_digest
    text = json.dumps({"format": FORMAT, "tables": _tables_digest(game), "code": code_digest(),
                       "settings": settings}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def cached_path(game, settings: dict) -> Path | None:
    from simulator.run.checkpoint import cache_dir
    folder = cache_dir()
    if folder is None:
        return None
    return folder / "values" / f"{cache_key(game, settings)[:32]}.json"


def load(path: Path | None) -> Learned | None:
    if path is None or not path.is_file():
        return None
    try:
        return Learned.from_json(json.loads(path.read_text()))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(learned: Learned, path: Path | None) -> None:
    if path is None:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(learned.to_json(), indent=1))
        tmp.replace(path)
    except OSError:
        pass                     # a read-only cache: the value is fitted again next time


def learn(game, *, games: int = DEFAULT_GAMES, seed: int = FIT_SEED, players=("greedy", "greedy"),
          workers: int | None = None, progress: str | None = None, refit: bool = False) -> tuple[Learned, bool]:
    """The scenario's learned value for these settings: from the cache, else collected
    and fitted (and cached); ``(value, whether it came from the cache)``."""
    settings = settings_of(games, seed, players)
    path = cached_path(game, settings)
    if not refit:
        hit = load(path)
        if hit is not None and hit.names == feature_names(game):
            return hit, True
    t0 = time.perf_counter()
    data = collect(game, games=games, seed=seed, players=players, workers=workers, progress=progress)
    t1 = time.perf_counter()
    learned = fit(game, data, settings)
    learned.seconds["collect"] = t1 - t0
    learned.key = cache_key(game, settings)
    save(learned, path)
    return learned, False


def prepare(game, players, progress: str | None = None) -> None:
    """Before ``players`` play ``game``: when one of them is learned
    (:func:`~simulator.engine.players.interface.is_learned`), the scenario's value
    fitted or loaded (:func:`attach`) for the players' ``Work``
    (:func:`~simulator.engine.players.interface.make_work`)."""
    if any(is_learned(p) for p in players):
        attach(game, progress=progress)


def attach(game, *, progress: str | None = None, games: int = DEFAULT_GAMES, seed: int = FIT_SEED) -> Learned:
    """Give ``game`` its learned value (``game.learned_value``, which the players' ``Work``
    is filled from): the cached one, else fitted now (a line on stderr says so)."""
    have = getattr(game, "learned_value", None)
    if have is not None:
        return have
    settings = settings_of(games, seed)
    if load(cached_path(game, settings)) is None:
        say(f"fitting the learned position value on {games:,} greedy games (seed {seed}; once, "
            "then cached)")
    learned, _ = learn(game, games=games, seed=seed, progress=progress)
    game.learned_value = learned
    return learned


def calibration_frame(learned: Learned):
    """The held-out calibration by decile as a table (``value-calibration.csv``)."""
    import pandas as pd
    return pd.DataFrame(learned.calibration, columns=["decile", "positions", "predicted", "observed", "low", "high"])


def summary_lines(learned: Learned) -> list[str]:
    """A few lines on the value: data, fit, held-out scores against the baselines."""
    m, d = learned.metrics, learned.data
    lines = [f"learned position value: {len(learned.names)} features, {d['games']:,} games "
             f"({', '.join(learned.settings['players'])}), {d['positions']:,} positions, seed "
             f"{learned.settings['seed']}, lambda {learned.lam:g}",
             f"held out: {d['test_games']:,} games, {d['test_positions']:,} positions"]
    for k, label in (("learned", "learned value"), ("hand", "hand-written (mcts)"), ("base_rate", "base rate")):
        lines.append(f"  {label:<22} Brier {m[k]['brier']:.4f}  log loss {m[k]['log_loss']:.4f}")
    lines.append("  decile  positions  predicted  observed  95% interval")
    for r in learned.calibration:
        lines.append(f"  {r['decile']:>6}  {r['positions']:>9,}  {r['predicted']:>9.3f}  {r['observed']:>8.3f}  "
                     f"[{r['low']:.3f}, {r['high']:.3f}]")
    secs = learned.seconds
    if secs:
        lines.append(f"time: games {secs.get('collect', 0.0):.1f} s, fit {secs.get('fit', 0.0):.1f} s")
    return lines

