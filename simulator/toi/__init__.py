"""Tide of Iron: exact and Monte Carlo odds of ranged fire, assaults and minefields.

``data`` loads the roster and terrain files, ``units`` reads unit specs, ``attack``
and ``assault`` apply the rules (001, 002), ``results`` holds the result tables,
``exact`` and ``kernels`` compute the distributions, ``questions`` is the Python API
(DataFrames) and ``cli`` the ``lanchester toi`` group, one ``cli_*`` module per command;
the text and JSON they print are in ``reports/toi_text.py``. Readings of unclear rules:
``docs/rulings.md`` (Tide of Iron).
"""
