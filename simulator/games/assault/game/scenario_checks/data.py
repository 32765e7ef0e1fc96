"""``[data]``: the data files a scenario is played with (dice, aid, unit and formation
cards), the command line's beating the file's, the file's beating the shipped ones."""

from __future__ import annotations

from pathlib import Path

from simulator.games.assault.game.scenario_checks.base import CheckBase
from simulator.games.assault.game.scenario_format import DATA_OPTIONS, DataFiles, load_formations
from simulator.games.assault.rules.aid import load_aid
from simulator.games.assault.rules.cards import load_units
from simulator.games.assault.rules.dice import load_dice
from simulator.run.errors import InputError


class DataChecks(CheckBase):
    """``[data]``: find and load the data files, blaming the key that chose each."""

    def data_path(self, kind: str, data: DataFiles) -> tuple[Path | None, str]:
        """The file of one kind of data and the key to blame for it: the command line's
        (``--aid``, relative to the working folder), else the scenario's ``[data]``
        (``data.aid``, relative to the scenario file), else ``None`` (the shipped file)."""
        if kind in self.given:
            path, key = Path(self.given[kind]), DATA_OPTIONS[kind]
        else:
            value = getattr(data, kind)
            path, key = (None if value is None else self.path.parent / value), f"data.{kind}"
        self.chosen[kind] = key if path is not None else "shipped"
        return path, key

    def load_data(self) -> None:
        data = self.section(DataFiles, "data") or DataFiles()
        path, key = self.data_path("dice", data)
        try:
            self.dice = load_dice(path)
        except InputError as exc:
            self.r.error(key, exc.one_line())
            return
        path, key = self.data_path("aid", data)
        try:
            self.aid = load_aid(path, self.dice)
        except InputError as exc:
            self.r.error(key, exc.one_line())
        path, key = self.data_path("units", data)
        try:
            self.units = load_units(path, self.dice)
        except InputError as exc:
            self.r.error(key, exc.one_line())
            return
        path, key = self.data_path("formations", data)
        try:
            self.formations = load_formations(path, self.units)
        except InputError as exc:
            self.r.error(key, exc.one_line())
