"""Helpers of the Tide of Iron game tests: the tiny scenario, positions built by hand."""

from __future__ import annotations

from pathlib import Path

from simulator.engine.core.actions import decode
from simulator.games.toi.game import state as S
from simulator.games.toi.game.game import Game, State
from simulator.games.toi.game.scenario import load_scenario


def kind_of(a: int) -> int:
    """Action ``a``'s kind (the engine's shared encoding, simulator/engine/core/actions.py)."""
    return decode(a)[0]


def unit_of(a: int) -> int:
    return decode(a)[1]


def arg_of(a: int) -> int:
    return decode(a)[2]

TINY = Path(__file__).parent / "data" / "tiny.scenario.toml"
MARKED = Path(__file__).parent / "data" / "tiny-markers.scenario.toml"     # the same with markers
A0, A1, AMG, A3, B0, B1, BOFF, BREIN = range(8)   # the tiny scenario's squads: a 0-3, b 4-6, b's reinforcement 7
BFLAME, BENG, BMED, BMORT = 8, 9, 10, 11        # the marked one's specialised squads of b, its mortar


def tiny_game(path: Path = TINY) -> Game:
    return Game(load_scenario(str(path)))


def hex_of(game: Game, name: str) -> int:
    return game.scenario.grid.index_of(name)


def kinds(st: State) -> list[str]:
    return [S.KIND_NAMES[kind_of(a)] for a in st.legal_actions()]


def find(st: State, kind: int, unit: int | None = None, arg: int | None = None) -> int:
    for a in st.legal_actions():
        if kind_of(a) == kind and (unit is None or unit_of(a) == unit) and (arg is None or arg_of(a) == arg):
            return a
    raise AssertionError(f"no legal {S.KIND_NAMES[kind]} unit={unit} arg={arg}: "
                         f"{[st.action_to_string(a) for a in st.legal_actions()]}")


def deployed(seed: int = 0, where: dict[int, str] | None = None, opfire: tuple[int, ...] = (),
             path: Path = TINY) -> State:
    """The tiny game after its set-up: squads placed as ``where`` says (default: a in
    column 1, b in column 4), ``opfire`` units in op fire mode; round 1, side a to act."""
    game = tiny_game(path)
    st = State(game, seed)
    default = {A0: "1,1", A1: "1,0", AMG: "1,2", A3: "0,1", B0: "4,1", B1: "4,0", BOFF: "4,2",
               BFLAME: "5,0", BENG: "5,0", BMED: "5,2", BMORT: "5,2"}
    while st.s.g[S.G_SUB] == S.SUB_PLACE:
        k = unit_of(st.legal_actions()[0])
        st.apply_action(find(st, S.K_PLACE, k, 2 * hex_of(game, default[k])))
    for k, name in (where or {}).items():            # then moved by hand where the test wants them
        teleport(st, k, hex_of(game, name))
    while st.s.g[S.G_SUB] == S.SUB_SET_OPFIRE:
        todo = [k for k in opfire if int(st.s.u[k, S.U_SIDE]) == int(st.s.g[S.G_PLACER])
                and st.s.u[k, S.U_TOKEN] == S.TOK_FRESH]
        st.apply_action(find(st, S.K_SET_OPFIRE, todo[0]) if todo else find(st, S.K_OPFIRE_DONE))
    return st


def teleport(st: State, k: int, h: int) -> None:
    """Put squad ``k`` in hex ``h`` by hand (keeping the hex counts)."""
    s = st.s
    old, side = int(s.u[k, S.U_HEX]), int(s.u[k, S.U_SIDE])
    if old >= 0:
        s.hx[old, S.HX_OCC + side] -= 1
    s.hx[h, S.HX_OCC + side] += 1
    s.u[k, S.U_HEX] = h


def figures(st: State, k: int) -> int:
    nf = int(st.game.tables.p[3])
    return int(st.s.u[k, S.U_FIG:S.U_FIG + nf].sum())


def events(st: State, name: str) -> list[tuple]:
    return [e for e in st.events() if e[0].startswith(name)]


def seeds_where(check, tries: int = 200):
    """Seeds of the tiny game for which ``check(seed)`` is true (dice-dependent tests)."""
    return [sd for sd in range(tries) if check(sd)]
