"""How Assault answers are shown: the report bundles of every command (``bundles``), the
terminal text and JSON of the odds and fire answers (``text``) and of a scenario run
(``scenario_text``)."""
