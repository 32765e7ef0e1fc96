"""games.csv's header line: column names are quoted where CSV needs it, as the rows are."""

import csv
import io

import pandas as pd

from simulator.engine.core.batch import csv_header


def test_a_name_with_a_comma_or_a_quote_stays_one_column():
    names = ["winner", "losses_rifles,41", 'say "hi"', "=1+1", "turns"]
    line = csv_header(names)
    # read back by two CSV readers: five columns, the names as written except the
    # formula-looking one, which gets its leading ' (simulator.run.output.csv_cell)
    assert next(csv.reader(io.StringIO(line))) == ["winner", "losses_rifles,41", 'say "hi"', "'=1+1", "turns"]
    frame = pd.read_csv(io.StringIO(line + "1,2,3,4,5\n"))
    assert list(frame.columns) == ["winner", "losses_rifles,41", 'say "hi"', "'=1+1", "turns"]
    assert frame.iloc[0].tolist() == [1, 2, 3, 4, 5]


def test_plain_names_are_not_quoted():
    assert csv_header(["a", "b_c", "d"]) == "a,b_c,d\n"
