"""Playing a scenario many times: per-game records, streamed, and their summary.

A game's compiled batch entry (Assault's
:func:`~simulator.engine.players.chunks.play_chunk`; numba, releases the GIL) plays
one chunk of games and writes one fixed-width integer record per game. :func:`run_games` plays a run through the shared
runner, :func:`simulator.run.runner.execute` (pieces of ``PIECE_GAMES`` games, ``SEARCH_PIECE_GAMES``
with a search player; workers,
Dask, checkpoints and ``--precision`` as for every simulating command), streams the
records to Parquet and CSV while they come in, and keeps only counts in memory
(:class:`Tally`, plus one byte per game for the outcome and one for the turn of
decision): one million games need little more memory than one piece per worker.

Game ``k`` of a run with seed ``S`` is game ``k % GAMES_PER_CHUNK`` of chunk
``k // GAMES_PER_CHUNK`` (:mod:`simulator.engine.core.seeding`): each game's ``State``
rebuilds it exactly for a replay.

The runner is game-neutral: it takes a *game* object (Assault's
:class:`simulator.games.assault.game.scenario_game.Game`, Tide of Iron's
:class:`simulator.games.toi.game.game.Game`) providing

- ``name``, ``edition``, ``sides``, ``turns``, ``tables``, ``new_state(log_cap)``;
- ``chunk_entry(kinds)``: its compiled batch entry for players ``kinds``, called as
  ``entry(t, key, first_game, n_games, kinds, params, s, w, out, log, max_decisions)``,
  writing records whose first columns are
  :data:`simulator.engine.core.records.FIXED_COLUMNS`;
- ``record_columns()``, ``card_names()``, ``card_side(card)``, ``formations``,
  ``describe()``: the records' columns and the summary's per-game parts;
- ``reason_names``, ``no_winner``, ``r_truncated``: its end-of-game codes;
- ``players``: its players' module (``PLAYER_NAMES``, ``parse_player``,
  ``player_setup``, ``make_work(game)``).
"""

from __future__ import annotations

import dataclasses
import math
import os
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from simulator.engine.core.compiling import int64_constants
from simulator.engine.core.pystate import Game
from simulator.engine.core.records import (
    ACTIVITY_KEYS,
    C_ACTIVATIONS,
    C_CCS,
    C_DECIDED,
    C_DECISIONS,
    C_FALLBACKS,
    C_FIRST,
    C_FORM0,
    C_GAME,
    C_OBJ0,
    C_OBJ1,
    C_REACTIONS,
    C_REASON,
    C_SLEFT0,
    C_SLEFT1,
    C_TURNS,
    C_VALUE0,
    C_VALUE1,
    C_WINNER,
    N_FIXED,
)
from simulator.engine.core.seeding import GAMES_PER_CHUNK, chunk_key
from simulator.run import checkpoint as runner_checkpoint
from simulator.run import runner
from simulator.run.errors import InputError
from simulator.run.intervals import newcombe_difference
from simulator.run.progress import Interrupted, say
from simulator.run.stats import wilson_interval
from simulator.run.suggest import did_you_mean
from simulator.run.verdicts import balance_verdict, until_decided
from simulator.run.vocabulary import DEFAULT_MARGIN_POINTS, MAX_GAMES

MAX_DECISIONS = 20000   # decisions a game may take; one not over by then is recorded as truncated


# ======================================================================================
# the Python side
# ======================================================================================


def player_kinds(text: str | None, default: str = "greedy,greedy", *, players) -> tuple[str, str]:
    """``"greedy,random"`` -> the players of the first and second side (a name may carry
    a strength: ``mcts:400``, see :func:`~simulator.engine.players.interface.parse_player`),
    checked by ``players`` (the game's players module: its ``PLAYER_NAMES`` and
    ``parse_player``)."""
    PLAYER_NAMES, parse_player = players.PLAYER_NAMES, players.parse_player
    names = [p.strip() for p in (text or default).split(",")]
    if len(names) == 1:
        names = names * 2
    if len(names) != 2:
        raise InputError("--players", "", f"give two players, one per side (got {text!r})")
    for n in names:
        try:
            parse_player(n)
        except ValueError as e:
            base = n.partition(":")[0]
            why = str(e) if base in PLAYER_NAMES else \
                f"{e}{did_you_mean(base, PLAYER_NAMES)} ({', '.join(PLAYER_NAMES)}, mcts:N, uct:N)"
            raise InputError("--players", "", why) from None
    return names[0], names[1]


def record_columns(game) -> list[str]:
    """Column names of a game's records: the shared ones, then the game's own."""
    return game.record_columns()


def chunk_task(game, kinds: np.ndarray, params: np.ndarray, piece_games: int, n_games: int,
               seed_seq: np.random.SeedSequence, max_decisions: int = MAX_DECISIONS, start: int = 0) -> np.ndarray:
    """Runner task: the records of run piece ``i = seed_seq.spawn_key[0]``, games
    ``start + i * piece_games`` onwards (a fresh state and scratch per piece).

    Game ``k`` always draws from seed chunk ``k // GAMES_PER_CHUNK`` (its stream key,
    :func:`simulator.engine.core.seeding.chunk_key`) at place ``k % GAMES_PER_CHUNK``, so how a
    run is cut into pieces, and how many workers play them, never changes a game; ``start``
    (a round of ``--until-decided``) plays games ``start ...`` of the run with that seed,
    a piece that crosses a seed chunk's end being played in two parts.
    """
    return played_piece(game, kinds, params, piece_games, n_games, seed_seq, max_decisions, start).records


@dataclass
class Played:
    """A runner piece's result: its games' records and the heat counters its games added
    up in the state (``[kind, side, hex]``: units lost, shot at, close combats started
    in each hex; ``None`` for a game without them)."""

    records: np.ndarray
    heat: np.ndarray | None = None


def _played_arrays(p: Played) -> dict[str, np.ndarray]:
    return {"records": p.records} if p.heat is None else {"records": p.records, "heat": p.heat}


runner_checkpoint.register_codec("played", Played, _played_arrays,
                                 lambda a: Played(a["records"], a.get("heat")))


def played_piece(game, kinds: np.ndarray, params: np.ndarray, piece_games: int, n_games: int,
                 seed_seq: np.random.SeedSequence, max_decisions: int = MAX_DECISIONS, start: int = 0) -> Played:
    """:func:`chunk_task`'s games, with the heat counters the piece's games added up
    (the game's ``heat(s)``, when it has one: a fresh state per piece starts them at 0)."""
    first = int(start) + int(seed_seq.spawn_key[0]) * piece_games
    run_seed = seed_seq.entropy          # the run's seed: the runner spawns its pieces from SeedSequence(seed)
    assert isinstance(run_seed, int)
    out = np.zeros((n_games, len(game.record_columns())), dtype=np.int64)
    s = game.new_state()
    w = game.players.make_work(game)
    entry = game.chunk_entry(kinds)
    done = 0
    while done < n_games:
        chunk, offset = divmod(first + done, GAMES_PER_CHUNK)
        part = min(n_games - done, GAMES_PER_CHUNK - offset)
        rows = out[done:done + part]
        entry(game.tables, chunk_key(run_seed, chunk), np.int64(offset), np.int64(part), kinds, params, s, w,
              rows, np.int64(0), np.int64(max_decisions))
        rows[:, C_GAME] += chunk * GAMES_PER_CHUNK
        done += part
    heat = game.heat(s) if hasattr(game, "heat") else None
    return Played(out, heat)


def play_alone(game, seed: int, game_index: int, kinds: np.ndarray, params: np.ndarray,
               log_cap: int, max_decisions: int = MAX_DECISIONS):
    """Game ``game_index`` of the run with ``seed``, played on its own by the batch's own
    compiled loop with the event log on (``log_cap`` events): its final arrays. The same
    streams and decision limit as in the batch (:func:`chunk_task`), so the same game.
    A game whose events overflow the log is played again with a log four times larger
    (up to ``MAX_LOG_CAP``)."""
    chunk, offset = divmod(int(game_index), GAMES_PER_CHUNK)
    out = np.zeros((1, len(game.record_columns())), dtype=np.int64)
    while True:
        s = game.new_state(log_cap=log_cap)
        try:
            game.chunk_entry(kinds)(game.tables, chunk_key(seed, chunk), np.int64(offset), np.int64(1), kinds, params, s,
                            game.players.make_work(game), out, np.int64(1), np.int64(max_decisions))
            return s
        except ValueError as exc:
            if "event log full" not in str(exc) or log_cap >= MAX_LOG_CAP:
                raise
            log_cap *= 4


MAX_LOG_CAP = 1 << 22     # events a replay may keep (128 MiB): 20,000 decisions log far fewer


PIECE_GAMES = 256     # games per runner chunk: both workers busy on small runs too
SEARCH_PIECE_GAMES = 16     # with a search player a game takes 0.1-1 s: both workers busy on a few hundred
assert GAMES_PER_CHUNK % PIECE_GAMES == 0 and GAMES_PER_CHUNK % SEARCH_PIECE_GAMES == 0


def games_per_piece(game, kinds: np.ndarray) -> int:
    """Games per runner chunk for players ``kinds``: :data:`SEARCH_PIECE_GAMES` when one
    searches (the game's ``players.SEARCHING`` kinds: look-ahead, tree search; a skill
    curve's level or a restriction plays a few hundred such games, one piece of 256
    would keep one worker busy), else :data:`PIECE_GAMES`. The games do not depend on
    it (:func:`chunk_task`)."""
    searching = getattr(game.players, "SEARCHING", ())
    return SEARCH_PIECE_GAMES if any(int(k) in searching for k in kinds) else PIECE_GAMES


def frame_of(game, records: np.ndarray) -> pd.DataFrame:
    """Records as a tidy table: side names for winner (``draw``; ``none`` for a game cut
    short, reason ``truncated``) and first player, reason names."""
    df = pd.DataFrame(records, columns=game.record_columns())
    sides = np.array(list(game.sides) + ["draw", "none"], dtype=object)
    w = df["winner"].to_numpy()
    df.insert(2, "winner_side", sides[np.where(w == game.no_winner, 3, np.where(w < 0, 2, w))])
    df.insert(4, "reason_name", np.array(game.reason_names, dtype=object)[df["reason"]])
    df.insert(6, "first_side", sides[df["first_player"].clip(0, 1)])
    return df


@dataclass
class Tally:
    """Counts over the games of a run (bounded memory, merged chunk by chunk); reads the
    shared columns of the records (:mod:`simulator.engine.core.records`)."""

    turns: int
    truncated_reason: int = -1    # the game's code of a game cut short (``game.r_truncated``; run_games sets it)
    games: int = 0
    wins: np.ndarray = field(default_factory=lambda: np.zeros(3, np.int64))      # side 0, side 1, draw
    truncated: int = 0         # games cut short at the decision limit: neither a win nor a draw
    first_wins: int = 0        # games won by the side with the initiative in turn 1
    first_counts: np.ndarray = field(default_factory=lambda: np.zeros((2, 4), np.int64))  # first side x outcome
    turns_sum: int = 0
    early: int = 0             # ended before the last turn (a game cut short did not end)
    last_turn: int = 0         # outcome settled in the last turn
    objectives: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    value_margin_sum: float = 0.0
    close: int = 0             # final objective counts within one of each other
    strength_left: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    losses: np.ndarray | None = None
    formations: dict = field(default_factory=dict)   # (side, mask) -> [games, wins]
    outcomes: list = field(default_factory=list)     # int8 per game (kept for paired what-ifs)
    decided: list = field(default_factory=list)      # int8 per game: turn the outcome was settled
    losses_sq: np.ndarray | None = None               # sum of squares of units lost per card (for se)
    stats: np.ndarray = field(default_factory=lambda: np.zeros(5, np.int64))
    # sums of squares of the closeness measures, for their standard errors
    objectives_sq: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    value_margin_sq: float = 0.0
    strength_left_sq: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    # the records' columns after the shared ones: ``n_losses`` loss columns (None: all of
    # them), then, with ``n_objectives``, each side's objective mask at each turn's end
    n_losses: int | None = None
    n_objectives: int = 0
    control: np.ndarray | None = None     # [turn - 1, side, objective]: games it held it at that turn's end
    heat: np.ndarray | None = None        # [kind, side, hex]: the game's heat counters, summed (game.heat)
    by_default: list = field(default_factory=list)   # bool per game: won by default at the end
    default_reason: int = -1    # the game's reason code of a win by default at the end (game.r_by_default)

    def add(self, rec: np.ndarray, heat: np.ndarray | None = None) -> None:
        n = len(rec)
        if heat is not None:
            self.heat = heat.astype(np.int64) if self.heat is None else self.heat + heat
        if self.n_objectives:
            self.add_control(rec[:, rec.shape[1] - 2 * self.turns:])
        self.games += n
        w = rec[:, C_WINNER]
        cut = rec[:, C_REASON] == self.truncated_reason
        idx = np.where(cut, 3, np.where(w < 0, 2, w))
        counts = np.bincount(idx, minlength=4)
        self.wins += counts[:3]
        self.truncated += int(counts[3])
        first = rec[:, C_FIRST]
        self.first_wins += int((w == first).sum())
        np.add.at(self.first_counts, (first.clip(0, 1), idx), 1)
        self.turns_sum += int(rec[:, C_TURNS].sum())
        self.early += int(((rec[:, C_TURNS] < self.turns) & ~cut).sum())
        self.last_turn += int((rec[:, C_DECIDED] == self.turns).sum())
        self.objectives += rec[:, [C_OBJ0, C_OBJ1]].sum(axis=0)
        self.close += int((np.abs(rec[:, C_OBJ0] - rec[:, C_OBJ1]) <= 1).sum())
        v0 = rec[:, C_VALUE0].astype(float)
        v1 = rec[:, C_VALUE1].astype(float)
        margin = np.abs(v0 - v1) / np.maximum(1.0, v0 + v1)
        self.value_margin_sum += float(margin.sum())
        self.value_margin_sq += float((margin * margin).sum())
        self.strength_left += rec[:, [C_SLEFT0, C_SLEFT1]].sum(axis=0)
        objectives = rec[:, [C_OBJ0, C_OBJ1]].astype(np.int64)
        left = rec[:, [C_SLEFT0, C_SLEFT1]].astype(np.int64)
        self.objectives_sq += (objectives * objectives).sum(axis=0)
        self.strength_left_sq += (left * left).sum(axis=0)
        per_game = rec[:, N_FIXED:] if self.n_losses is None else rec[:, N_FIXED:N_FIXED + self.n_losses]
        lost, lost_sq = per_game.sum(axis=0), (per_game * per_game).sum(axis=0)
        self.losses = lost if self.losses is None else self.losses + lost
        self.losses_sq = lost_sq if self.losses_sq is None else self.losses_sq + lost_sq
        self.stats += rec[:, [C_ACTIVATIONS, C_REACTIONS, C_FALLBACKS, C_CCS, C_DECISIONS]].sum(axis=0)
        for side in (0, 1):
            masks = rec[:, C_FORM0 + side]
            if not masks.any():
                continue
            for m in np.unique(masks):
                sel = masks == m
                g = self.formations.setdefault((side, int(m)), [0, 0])
                g[0] += int(sel.sum())
                g[1] += int((w[sel] == side).sum())
        self.outcomes.append(idx.astype(np.int8))
        self.decided.append(rec[:, C_DECIDED].astype(np.int8))
        self.by_default.append(rec[:, C_REASON] == self.default_reason if self.default_reason >= 0
                               else np.zeros(n, bool))

    def add_control(self, masks: np.ndarray) -> None:
        """``masks``: per game, turn-major, each side's objective mask at each turn's end."""
        if self.control is None:
            self.control = np.zeros((self.turns, 2, self.n_objectives), np.int64)
        m = masks.reshape(len(masks), self.turns, 2)
        for k in range(self.n_objectives):
            self.control[:, :, k] += ((m >> k) & 1).sum(axis=0)

    def by_default_array(self) -> np.ndarray:
        """Per game, in game order: True when it was won by default at the end (the
        scenario's winner when neither side meets its conditions)."""
        return np.concatenate(self.by_default) if self.by_default else np.zeros(0, bool)

    def outcome_array(self) -> np.ndarray:
        """Per game, in game order: 0 the first side won, 1 the second, 2 a draw, 3 cut
        short at the decision limit (truncated)."""
        return np.concatenate(self.outcomes) if self.outcomes else np.zeros(0, np.int8)

    def decided_array(self) -> np.ndarray:
        """Per game, in game order: the turn in which the outcome was settled."""
        return np.concatenate(self.decided) if self.decided else np.zeros(0, np.int8)


def new_tally(game) -> Tally:
    """An empty :class:`Tally` for ``game``'s records: its loss columns, its objectives'
    control by turn (when its records end with them, ``game.objective_names``), its codes
    of a game cut short and of a win by default."""
    n_obj = len(game.objective_names()) if hasattr(game, "objective_names") else 0
    return Tally(turns=int(game.turns), truncated_reason=int(game.r_truncated), n_losses=len(game.card_names()),
                 n_objectives=n_obj, default_reason=int(getattr(game, "r_by_default", -1)))


class RecordWriter:
    """Streams records to ``games.parquet`` and ``games.csv`` in a folder; the files
    appear under their names only when the run is complete (renamed at the end).

    Records are buffered and written ``FLUSH_ROWS`` at a time (one Parquet row group
    each, the CSV by pyarrow's writer): the main thread, which merges while the
    workers play, spends about a second per 100,000 games here."""

    FLUSH_ROWS = 1 << 16

    def __init__(self, out_dir: str | Path, game):
        import pyarrow as pa
        import pyarrow.csv as pacsv
        import pyarrow.parquet as pq
        self.dir = Path(out_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.pa, self.pq, self.pacsv = pa, pq, pacsv
        self.tmp_parquet = _temp(self.dir, "games.parquet")
        self.tmp_csv = _temp(self.dir, "games.csv")
        self.writer: Any = None         # pyarrow ParquetWriter and CSVWriter, opened with the first rows
        self.csv: Any = None
        self.buffer: list[np.ndarray] = []
        self.rows = 0

    def write(self, records: np.ndarray) -> None:
        self.buffer.append(records)
        self.rows += len(records)
        if self.rows >= self.FLUSH_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        df = frame_of(self.game, np.concatenate(self.buffer))
        self.buffer, self.rows = [], 0
        table = self.pa.Table.from_pandas(df, preserve_index=False)
        from simulator.run.output import csv_safe
        csv_table = self.pa.Table.from_pandas(csv_safe(df, names=False), preserve_index=False, schema=table.schema)
        if self.writer is None:
            self.writer = self.pq.ParquetWriter(self.tmp_parquet, table.schema)
            self.csv_file = open(self.tmp_csv, "wb")
            self.csv_file.write(csv_header(df.columns).encode())   # pyarrow would quote every name
            self.csv = self.pacsv.CSVWriter(self.csv_file, table.schema, write_options=self.pacsv.WriteOptions(
                include_header=False, quoting_style="needed"))
        self.writer.write_table(table)
        self.csv.write_table(csv_table)   # text cells that look like formulas get a ' (issue 44.6)

    def close(self, ok: bool) -> list[Path]:
        if ok:
            self.flush()
        for w in (self.writer, self.csv):
            if w is not None:
                w.close()
        if self.csv is not None:
            self.csv_file.close()
        done = []
        for tmp, name in ((self.tmp_parquet, "games.parquet"), (self.tmp_csv, "games.csv")):
            if ok and os.path.exists(tmp):
                os.replace(tmp, self.dir / name)
                done.append(self.dir / name)
            elif os.path.exists(tmp):
                os.unlink(tmp)
        return done


def csv_header(columns) -> str:
    """The header line of ``games.csv``: each column name made safe
    (:func:`simulator.run.output.csv_cell`) and quoted only where CSV needs it (a name
    with a comma, a quote or a line break, as a unit's name may have), as pyarrow
    quotes the rows (``quoting_style="needed"``)."""
    import csv
    import io

    from simulator.run.output import csv_cell
    line = io.StringIO()
    csv.writer(line, lineterminator="\n").writerow([csv_cell(str(c)) for c in columns])
    return line.getvalue()


def _temp(directory: Path, name: str) -> str:
    from simulator.run.output import temp_file
    return temp_file(directory, name)


@dataclass
class RunResult:
    game: Game     # the game's Python object: Assault's or Tide of Iron's (pystate.Game)
    players: tuple[str, str]
    games: int
    seed: int
    tally: Tally
    seconds: float
    workers: int
    files: list[Path] = field(default_factory=list)
    run: dict = field(default_factory=dict)    # runner.RunResult.describe(): checkpoint, precision, Dask
    max_decisions: int = MAX_DECISIONS         # the decision limit the games were played with
    sequential: bool = False                   # the run looked after every round: the verdict's confidence sequence


def run_games(game, *, games: int | None, seed: int, players: tuple[str, str] = ("greedy", "greedy"),
              workers: int | None = None, out_dir: str | Path | None = None, progress: str | None = None,
              params: np.ndarray | None = None, options: runner.RunOptions | None = None,
              max_decisions: int = MAX_DECISIONS) -> RunResult:
    """Play ``games`` games of a compiled scenario through the shared runner
    (:func:`simulator.run.runner.execute`: workers, Dask, checkpoints and ``--precision``
    from ``options``), folding each piece's records into a :class:`Tally` and streaming
    them to ``out_dir`` as they come in, in game order.

    With ``options.precision`` the run stops once the first side's win rate has a 95%
    interval that narrow; ``games`` is then the most it may play (``None``: no cap).
    A game not over after ``max_decisions`` decisions is stopped and recorded as
    truncated (winner ``none``, reason ``truncated``).
    """
    tally = new_tally(game)
    writer = RecordWriter(out_dir, game) if out_dir is not None else None
    ok = False
    start = time.perf_counter()
    try:
        res, used = _play(game, games=games, seed=seed, players=players, workers=workers, progress=progress,
                          params=params, options=options, max_decisions=max_decisions, tally=tally, writer=writer)
        ok = True
    except KeyboardInterrupt as exc:   # Ctrl-C or SIGTERM: the games finished so far, for the partial summary
        opts = _options_of(options, workers)
        raise _interrupted(exc, game, players, seed, tally, start, opts.workers, max_decisions, games, progress,
                           runner.checkpoint_root(opts)) from None
    finally:
        files = writer.close(ok) if writer is not None else []   # records only of a whole run
    seconds = time.perf_counter() - start
    return RunResult(game, players, tally.games, seed, tally, seconds, used, files, res.describe(),
                     int(max_decisions))


def _options_of(options: runner.RunOptions | None, workers: int | None) -> runner.RunOptions:
    """The options :func:`_play` runs with (where its checkpoint is)."""
    opts = dataclasses.replace(options or runner.RunOptions(), unit="game")
    return opts if workers is None else dataclasses.replace(opts, workers=workers)


def _interrupted(exc: KeyboardInterrupt, game, players, seed: int, tally: Tally, start: float, workers,
                 max_decisions: int, planned: int | None, stage: str | None, checkpoint: str | None,
                 sequential: bool = False) -> Interrupted:
    """The :class:`~simulator.run.progress.Interrupted` of a run stopped after ``tally.games``
    games (its first games: the runner merges pieces in order); an inner one passes as it is."""
    if isinstance(exc, Interrupted):
        return exc
    workers = workers or runner.default_workers()
    partial_run = RunResult(game, players, tally.games, seed, tally, time.perf_counter() - start, workers,
                            [], {"interrupted": True, "planned": planned}, int(max_decisions), sequential=sequential)
    return Interrupted(partial_run, planned, stage, checkpoint)


def _play(game, *, games: int | None, seed: int, players, workers, progress, params, options, max_decisions,
          tally: Tally, writer: RecordWriter | None, start: int = 0):
    """Games ``start ... start + games - 1`` of the run with ``seed``, folded into ``tally``
    (and ``writer``): ``(runner result, workers used)``."""
    kinds, params = game.players.player_setup(players, params)
    prepare = getattr(game, "prepare_players", None)      # a learned player's value: fitted or loaded first
    if prepare is not None:
        prepare(players, progress)
    piece = games_per_piece(game, kinds)
    task = partial(played_piece, game, kinds, params, piece, max_decisions=int(max_decisions), start=int(start))
    opts = dataclasses.replace(_options_of(options, workers), backend="thread")   # play_chunk releases the GIL
    if progress is not None:
        opts = dataclasses.replace(opts, progress=progress)

    def collect(_chunk, played):
        tally.add(played.records, played.heat)
        if writer is not None:
            writer.write(played.records)
        return tally

    side0 = game.sides[0]
    # the headline reads the tally, which a round of --until-decided shares with the earlier
    # rounds (its counts are not this call's): no headline then (no --precision either)
    headline = runner.Headline(f"P({side0} wins)", lambda tl: int(tl.wins[0]), sequential=True) \
        if start == 0 else None
    if games is None:   # --precision without a cap: never more than a batch can hold
        games = MAX_GAMES
    res = runner.execute(task, games, seed=seed, options=opts, headline=headline,
                         chunk_trials=piece, collect=collect)
    return res, min(opts.workers or runner.default_workers(), res.chunks)


def run_until_decided(game, *, first_round: int, max_games: int, seed: int, margin: float | None = None,
                      players: tuple[str, str] = ("greedy", "greedy"), workers: int | None = None,
                      out_dir: str | Path | None = None, progress: str | None = None,
                      params: np.ndarray | None = None, options: runner.RunOptions | None = None,
                      max_decisions: int = MAX_DECISIONS, echo=None) -> RunResult:
    """``--until-decided``: play rounds of games until the balance verdict at ``margin``
    is decided (:func:`simulator.run.verdicts.until_decided`, looking with the
    anytime-valid confidence sequence after every round) or ``max_games`` are played.

    The rounds' totals are fixed in advance (:func:`simulator.run.verdicts.round_totals`:
    ``first_round``, then doubling, capped at ``max_games``) and round ``k`` plays games
    ``total[k-1] ... total[k] - 1`` of the run with ``seed`` (:func:`chunk_task`'s
    ``start``): the games of a run that stops after N games are the first N games of
    ``--games N --seed S``, whatever the workers. ``echo(line)`` gets one line a round
    (default: stderr). The result's ``rounds`` lists each round's verdict.
    """
    margin = DEFAULT_MARGIN if margin is None else margin
    if options is not None and options.precision is not None:
        raise InputError("--until-decided", "", "give --precision or --until-decided, not both "
                                                "(both stop the run when its answer is clear)")
    if echo is None:
        echo = say     # one line a round on stderr (none with --quiet)
    opts = dataclasses.replace(options or runner.RunOptions(), checkpoint=None)
    tally = new_tally(game)
    writer = RecordWriter(out_dir, game) if out_dir is not None else None
    sides = list(game.sides)
    used = [1]

    def play_round(k: int, n: int) -> tuple[int, int, int, int]:
        label = f"{progress}, {tally.games:,} played" if progress and tally.games else progress   # the rounds so far
        _, w = _play(game, games=n, seed=seed, players=players, workers=workers, progress=label, params=params,
                     options=opts, max_decisions=max_decisions, tally=tally, writer=writer, start=tally.games)
        used[0] = max(used[0], w)
        counts = int(tally.wins[0]), int(tally.wins[1]), int(tally.wins[2]), int(tally.games)
        v = verdict(tally, sides, margin=margin, sequential=True)
        share = "" if v["share_first_side"] is None else \
            f", {sides[0]} {v['share_first_side']:.1%} of decisive [{v['ci95'][0]:.1%}, {v['ci95'][1]:.1%}]"
        echo(f"until decided: round {k + 1}, {tally.games:,} games{share}: {v['status']} "
             f"(margin ±{100 * margin:g} points)")
        return counts

    ok = False
    begin = time.perf_counter()
    try:
        final, rounds = until_decided(play_round, margin=margin, first_round=first_round, max_games=max_games,
                                      sides=sides)
        ok = True
    except KeyboardInterrupt as exc:   # the rounds are not checkpointed: a rerun plays them again
        raise _interrupted(exc, game, players, seed, tally, begin, used[0], max_decisions, max_games, progress,
                           None, sequential=True) from None
    finally:
        files = writer.close(ok) if writer is not None else []
    run = {"precision": None, "width": None, "reached": None, "checkpoint": None, "loaded": 0, "dask": opts.dask,
           "until_decided": {"first_round": int(first_round), "max_games": int(max_games),
                             "decided": final.decided, "rounds": rounds}}
    return RunResult(game, players, tally.games, seed, tally, time.perf_counter() - begin, used[0], files, run,
                     int(max_decisions), sequential=True)


def summary(result: RunResult, *, margin: float | None = None) -> dict:
    """The JSON summary of a run (the headline keys first); its verdict at ``margin``
    (default :data:`DEFAULT_MARGIN`), with the confidence sequence when the run looked
    as it went (``--until-decided``, ``--precision``)."""
    g, tl = result.game, result.tally
    n = tl.games
    sides = list(g.sides)
    win_rate = {}
    for i, side in enumerate(sides):
        lo, hi = wilson_interval(int(tl.wins[i]), n)
        win_rate[side] = {"p": tl.wins[i] / n, "ci95": [lo, hi]}
    first_lo, first_hi = wilson_interval(tl.first_wins, n)
    out = {
        "scenario": g.name,
        "games": n,
        "seed": result.seed,
        "players": {sides[0]: result.players[0], sides[1]: result.players[1]},
        "edition": g.edition,
        "win_rate": win_rate,
        "draw_rate": tl.wins[2] / n,
        "truncated_rate": tl.truncated / n,
        "truncated_games": int(tl.truncated),
        "decision_limit": result.max_decisions,
        "first_player_win_rate": tl.first_wins / n,
        "mean_turns": tl.turns_sum / n,
        "games_per_second": n / result.seconds if result.seconds > 0 else None,
    }
    out["first_player_win_rate_ci95"] = [first_lo, first_hi]
    looked = result.sequential or result.run.get("precision") is not None
    out["verdict"] = verdict(tl, sides, margin=DEFAULT_MARGIN if margin is None else margin, sequential=looked)
    out["first_player_effect"] = first_player_effect(tl, sides)
    out["decided_early_rate"] = tl.early / n
    out["decided_last_turn_rate"] = tl.last_turn / n
    out["closeness"] = {
        "objective_margin_at_most_1": tl.close / n,
        "mean_objectives_held": {s: tl.objectives[i] / n for i, s in enumerate(sides)},
        "mean_relative_points_margin": tl.value_margin_sum / n,
        "mean_strength_left": {s: tl.strength_left[i] / n for i, s in enumerate(sides)},
    }
    close_lo, close_hi = wilson_interval(tl.close, n)
    out["closeness"]["objective_margin_at_most_1_ci95"] = [close_lo, close_hi]
    out["closeness"]["se"] = {
        "mean_objectives_held": {s: mean_se_of(tl.objectives[i], tl.objectives_sq[i], n) for i, s in enumerate(sides)},
        "mean_relative_points_margin": mean_se_of(tl.value_margin_sum, tl.value_margin_sq, n),
        "mean_strength_left": {s: mean_se_of(tl.strength_left[i], tl.strength_left_sq[i], n)
                               for i, s in enumerate(sides)},
    }
    cards = g.card_names()
    no_games = np.zeros(len(cards), np.int64)            # a tally of no games has no per-card sums yet
    losses = no_games if tl.losses is None else tl.losses
    losses_sq = no_games if tl.losses_sq is None else tl.losses_sq
    out["mean_losses"] = {s: {c: float(losses[j] / n) for j, c in enumerate(cards)
                              if g.card_side(c) == s}
                          for s in sides}
    out["mean_losses_se"] = {s: {c: mean_se_of(losses[j], losses_sq[j], n) for j, c in enumerate(cards)
                                 if g.card_side(c) == s}
                             for s in sides}
    out["formations"] = formation_breakdown(g, tl)
    out["activity"] = {k: float(v / n) for k, v in zip(ACTIVITY_KEYS, tl.stats, strict=True)}
    out["activity_words"] = dict(g.activity_words)
    out["warnings"] = activity_warnings(out)
    out["workers"] = result.workers
    out["seconds"] = result.seconds
    out["chunk_games"] = GAMES_PER_CHUNK
    out["data"] = g.describe()
    out["files"] = [str(f) for f in result.files]
    run = result.run
    if run.get("precision") is not None or run.get("checkpoint") or run.get("dask") or run.get("until_decided"):
        out["run"] = {k: run.get(k) for k in ("precision", "width", "reached", "checkpoint", "loaded", "dask",
                                              "until_decided") if k in run}
    return out


def mean_se_of(total: float, total_sq: float, n: int) -> float:
    """The standard error (1 SE) of a per-game mean from the sum and the sum of squares
    over ``n`` games: ``sqrt(s^2 / n)``, ``s^2`` the sample variance (ddof 1); 0 below two
    games."""
    if n < 2:
        return 0.0
    mean = float(total) / n
    var = max(float(total_sq) / n - mean * mean, 0.0) * n / (n - 1)
    return math.sqrt(var / n)


DRAWS_DOMINATE = 0.5    # a draw rate above this is no balance verdict: the scenario rarely has a winner
RARE_WINS = 0.05        # a side winning fewer games than this "almost never wins"
DEFAULT_MARGIN = DEFAULT_MARGIN_POINTS / 100.0   # the balance margin, a fraction either side of 50%


def balance_test(margin: float = DEFAULT_MARGIN) -> str:
    """The balance test in one sentence, naming ``margin`` (docs/statistics.md)."""
    band = f"{50 - 100 * margin:g}%-{50 + 100 * margin:g}%"
    return (f"balanced when the whole 95% interval of the first side's share of the decisive games lies within "
            f"50% ± {100 * margin:g} points ({band}); unbalanced when it lies wholly outside; undecided when it "
            f"straddles an edge (not enough games); no verdict when draws exceed {DRAWS_DOMINATE:.0%} of the "
            "games. The interval is Wilson's for a run of a fixed number of games, the anytime-valid confidence "
            "sequence for a run that looked after every round (--until-decided, --precision)")


BALANCE_TEST = balance_test()


def margin_fraction(points: float | None, scenario_points: float | None = None) -> float:
    """The verdict's margin as a fraction: ``--margin`` (points) beats the scenario's
    ``[verdict] margin`` (points), which beats :data:`DEFAULT_MARGIN`."""
    chosen = points if points is not None else scenario_points
    if chosen is None:
        return DEFAULT_MARGIN
    if not 0.0 < float(chosen) < 50.0:
        raise InputError("--margin", str(chosen), "a margin in points, more than 0 and less than 50 (5 is 45%-55%)")
    return float(chosen) / 100.0
# Games cut short at the decision limit (truncated) are, like draws, in the denominator of
# every rate (win rates, draw rate and truncated rate add up to 1) and not decisive games,
# so the verdict leaves them out; a run with any says so in a warning (docs/rulings.md S27).


def verdict(tl: Tally, sides: list[str], *, margin: float = DEFAULT_MARGIN, sequential: bool = False) -> dict:
    """The balance verdict of a run's tally (:func:`simulator.run.verdicts.balance_verdict`
    on the first side's share of the decisive games, the test :func:`balance_test`):
    ``status`` "balanced", "unbalanced", "undecided" or "no verdict", with ``margin``,
    ``games_needed``, ``edge_detectable``, ``ci95`` and the rest of
    :meth:`~simulator.run.verdicts.Verdict.to_dict`. ``sequential``: the run looked
    after every round (the confidence sequence, interval "sequence"). The text says
    when a side almost never wins, and names games cut short."""
    v = balance_verdict(int(tl.wins[0]), int(tl.wins[1]), int(tl.wins[2]), int(tl.games), sides,
                        margin=margin, sequential=sequential, draws_dominate=DRAWS_DOMINATE)
    out = {**v.to_dict(), "test": balance_test(margin)}
    text = v.text
    if v.decisive_games == 0 and tl.truncated:
        text = (f"no verdict: no game had a winner ({int(tl.wins[2]):,} draws, {tl.truncated:,} cut short "
                "at the decision limit)")
    elif v.status == "undecided" and v.edge_detectable:
        text += (f"; {v.favoured}'s edge is detectable (the interval excludes 50%), not yet whether it exceeds "
                 "the margin")
    if v.status == "unbalanced":
        loser = 1 - list(sides).index(str(v.favoured))     # unbalanced: a side is favoured
        n = max(tl.games, 1)
        if tl.wins[loser] / n < RARE_WINS:
            text += f"; {sides[loser]} almost never wins ({tl.wins[loser] / n:.1%} of games)"
    out["text"] = text
    return out


LOW_CLOSE_COMBATS = 0.2      # close combats a game below which "the players hardly close in"
LOW_ACTIVATIONS = 1.0        # activations a game below which "the players hardly act"


def activity_warnings(summary: dict) -> list[str]:
    """Warnings when the players' behaviour makes the numbers doubtful: hardly any close
    combat or activation, or games cut short by the decision limit."""
    out = []
    cut = summary.get("truncated_games", 0)
    if cut:
        out.append(f"{cut:,} of {summary['games']:,} games ({summary['truncated_rate']:.2%}) were cut short: "
                   f"not over after {summary.get('decision_limit', MAX_DECISIONS):,} decisions (reason "
                   "'truncated', winner 'none' in the records); they count in every rate's denominator "
                   "but neither as a win nor as a draw, and the verdict leaves them out like draws")
    act = summary.get("activity", {})
    close_in = summary.get("activity_words", {}).get("close_in", "enter close combat")
    if act.get("close_combats", 1.0) < LOW_CLOSE_COMBATS:
        out.append(f"the players hardly ever {close_in} ({act['close_combats']:.2f} a game): "
                   "an attacker that never closes in may make the defender look stronger than it is")
    if act.get("activations", LOW_ACTIVATIONS) < LOW_ACTIVATIONS:
        out.append(f"the players hardly act ({act['activations']:.2f} activations a game)")
    if summary.get("verdict", {}).get("status") == "no verdict" and summary.get("draw_rate", 0.0) > DRAWS_DOMINATE:
        out.append(f"{summary['draw_rate']:.1%} of games are draws: the players may not be pursuing "
                   "the victory conditions (try stronger players, or check the conditions)")
    return out


FIRST_PLAYER_COVERS = ("the initiative in the first turn only (who moves first in turn 1); later turns' initiative "
                       "is not in it")


def first_player_effect(tl: Tally, sides: list[str]) -> dict:
    """How much the initiative in turn 1 is worth (:data:`FIRST_PLAYER_COVERS`): each
    side's win rate when it had it and when it did not, and the difference with its 95%
    interval (Newcombe's hybrid score interval, :func:`simulator.run.intervals.newcombe_difference`:
    it keeps a width at 0% and 100%). Positive: the side wins more when it moves first.
    With no draw (nor game cut short) the two sides' differences are one number (a win
    of one side is a loss of the other): ``same_for_both`` says so, and the reports
    give it once."""
    out: dict = {}
    for side in (0, 1):
        with_it = tl.first_counts[side]
        without = tl.first_counts[1 - side]
        n1, n2 = int(with_it.sum()), int(without.sum())
        if n1 == 0 or n2 == 0:
            out[sides[side]] = {"games_first": n1, "games_second": n2, "difference": None}
            continue
        d, (lo, hi) = newcombe_difference(int(with_it[side]), n1, int(without[side]), n2)
        out[sides[side]] = {"win_rate_first": with_it[side] / n1, "win_rate_second": without[side] / n2,
                            "difference": d, "ci95": [lo, hi], "games_first": n1, "games_second": n2}
    undecided = sum(int(tl.first_counts[s][k]) for s in (0, 1) for k in range(2, len(tl.first_counts[s])))
    out["same_for_both"] = bool(undecided == 0 and all(out[s]["difference"] is not None for s in sides))
    out["covers"] = FIRST_PLAYER_COVERS
    return out


def formation_breakdown(g, tl: Tally) -> list[dict]:
    rows = []
    for (side, mask), (n, wins) in sorted(tl.formations.items()):
        names = [g.formations[f] for f in range(len(g.formations)) if mask >> f & 1]
        lo, hi = wilson_interval(wins, n)
        rows.append({"side": g.sides[side], "formations": names, "games": n, "win_rate": wins / n,
                     "ci95": [lo, hi]})
    return rows


int64_constants(globals())
