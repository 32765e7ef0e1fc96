"""``python -m simulator`` runs the ``lanchester`` command."""

from simulator.cli import main

main()
