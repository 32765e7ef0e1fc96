"""The Tide of Iron calculators' questions (ranged fire, assaults, minefields) as DataFrames."""
