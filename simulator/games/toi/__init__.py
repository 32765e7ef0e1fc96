"""Tide of Iron: exact and Monte Carlo odds of ranged fire, assaults and minefields, and
whole scenarios on the engine.

- ``rules/``: ``data`` loads the roster and terrain files, ``units`` reads unit specs,
  ``attack`` and ``assault`` apply the rules (001, 002), ``results`` holds the result
  tables, ``exact`` and ``kernels`` compute the distributions, ``jit`` compiles them;
- ``questions/odds``: the Python API (DataFrames);
- ``game/``: the whole game on the engine (see its package docstring);
- ``report/``: the text, JSON and report bundles;
- ``cli/``: the ``lanchester toi`` group, one module per command.

Readings of unclear rules: ``docs/rulings.md`` (Tide of Iron).
"""
