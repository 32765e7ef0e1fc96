"""The Assault calculators' questions, answered as DataFrames: dice odds (``odds``), the
matchup matrix (``matrix``) and close combat in both editions (``melee``)."""
