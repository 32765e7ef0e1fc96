"""How Tide of Iron answers are shown: the report bundles (``bundles``) and the terminal text
and JSON (``text``)."""
