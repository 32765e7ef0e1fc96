"""The computer players, one module each, behind one interface (numba).

- :mod:`.interface`: the dispatch by kind (:func:`~.interface.choice`, for Python
  :func:`~.interface.choose`), whole games (:func:`~.interface.play`),
  :data:`~.interface.PLAYER_NAMES`, the scratch and memory :class:`~.interface.Work`
  and the parameters (what a player may read, draw and keep is documented there);
- :mod:`.base`: what every player shares (its own random stream, the parameters' layout);
- :mod:`.randomplay`: ``random``, uniform over the legal actions;
- :mod:`.greedy_values` and :mod:`.greedy`: ``greedy``, the best action by exact odds
  and the value of hexes;
- :mod:`.lookahead`: ``lookahead``, flat Monte Carlo over greedy's best actions.

The players read the game through :mod:`simulator.engine.view`.

Numba's disk cache: the engine's own (``engine/__pycache__``, kept by
:mod:`simulator.engine.state`) holds code compiled from these modules (the batch loop
inlines :func:`~.interface.play`), and these modules' cache (``players/__pycache__``)
holds the rules compiled into the players. :func:`_refresh_numba_cache` drops both
when a source here or the engine's sources change.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from simulator.engine import state


def _refresh_numba_cache() -> None:
    here = Path(__file__).resolve().parent
    engine_cache = here.parent / "__pycache__"
    own_cache = here / "__pycache__"
    digest = hashlib.sha256()
    try:
        digest.update((engine_cache / "numba-sources.sha256").read_bytes())   # the engine's sources
    except OSError:
        pass
    for p in sorted(here.glob("*.py")):
        if state._is_compiled(p):
            digest.update(p.name.encode())
            digest.update(p.read_bytes())
    stamp = own_cache / "numba-sources.sha256"
    key = digest.hexdigest()
    try:
        if stamp.read_text() == key:
            return
    except OSError:
        pass
    own_cache.mkdir(exist_ok=True)
    for cache in (own_cache, engine_cache):
        for f in list(cache.glob("*.nbi")) + list(cache.glob("*.nbc")):
            try:
                f.unlink()
            except OSError:
                pass
    try:
        stamp.write_text(key)
    except OSError:
        pass


_refresh_numba_cache()
