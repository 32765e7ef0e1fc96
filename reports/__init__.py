"""Reports designers read: tidy CSV (+ Parquet), PNG charts, ``summary.json``, one HTML page.

Modules:

- :mod:`reports.provenance`: data sources and status, data hash, method, version, command line.
- :mod:`reports.tables`: the tidy tables and their stable columns (``docs/report-columns.md``).
- :mod:`reports.charts`: matplotlib charts (Agg), each titled with its question, with a provenance footer.
- :mod:`reports.html`: the offline ``index.html``.
- :mod:`reports.bundle`: ``write_bundle(DIR, report)`` (atomic folder), :func:`emit_report`, ``rebuild``.
- :mod:`simulator.games.assault.report.bundles`, :mod:`simulator.games.toi.report.bundles`: which tables and charts each command's report has.
- :mod:`simulator.games.assault.report.text`, :mod:`simulator.games.toi.report.text`: the terminal text and JSON of the Assault and Tide of
  Iron answers (no heavy imports at module level: a command's ``--help`` stays quick).
- :mod:`simulator.cli_report`: ``lanchester report DIR``.

Wiring a command to ``--out DIR`` (three lines). Give it ``@cliopts.out`` (the one
meaning of ``--out``: :mod:`simulator.cliopts`) and replace
``emit(render(fmt, table=..., frame=..., obj=...), out)`` by::

    from reports.bundle import emit_report
    emit_report(fmt, out, table=text, frame=frame, obj=obj,
                report=lambda: fire_report([frame], terrain=terrain, dice=dice_file, aid=aid_file,
                                           units_dir=units_dir))

``report`` is a function, called only when a bundle is written (``--out DIR``), that
returns a :class:`reports.bundle.Report`. Without ``--out``, or with ``--out NAME.json``
(``.csv``, ``.txt``, ``.tsv``, ``.md``, or an existing file), ``emit_report`` prints or
writes the ``--format`` text.

Ready-made reports:

- ``lanchester assault fire``: ``simulator.games.assault.report.bundles.fire_report(frames, terrain=..., dice=..., aid=...,
  units_dir=..., support=...)``.
- ``lanchester assault resolve``, ``smoke``, ``terrain-damage``: ``simulator.games.assault.report.bundles.resolve_report``,
  ``smoke_report``, ``terrain_damage_report``.
- close combat: ``simulator.games.assault.report.bundles.close_combat_report(end_states, question=..., provenance=...)`` with
  ``end_states`` columns ``edition, end_state, p[, se]``; ``lanchester assault melee`` builds them
  with ``simulator.games.assault.report.bundles.melee_report`` (who holds the hex, one edition or both).
- scenarios: ``reports.balance.scenario_report(games, question=..., provenance=..., losses=...,
  variants=..., sides=...)`` with ``games`` columns ``game, winner, decided_turn``, ``losses``
  columns ``side, unit_type, mean_lost[, se]``, ``variants`` columns ``variant, side, wins, games``.

Build ``provenance`` with ``reports.provenance.provenance(*assault_data(dice=..., aid=...,
units_dir=..., parts=(...)), method=..., seed=..., trials=...)``.
"""
