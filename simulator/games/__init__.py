"""The games on the engine, one folder each (docs: design, "One game, one folder").

Each game holds ``rules/`` (its combat rules and data, what the calculators and the engine
share), ``questions/`` (the calculators' questions, answered as tables), ``game/`` (the
whole game on the engine: state, scenario compile, phases, its greedy player and its side
of the game API), ``report/`` (its tables, charts and text) and ``cli/`` (its click
commands). No game imports another (``tests/test_layers.py``)."""
