"""Positions: a game stopped at any decision, resumed from there with any strategies, and the
position as one player sees it, its hidden cards dealt again (docs/design.md, "Positions").

    pos = snapshot(GAME, rules, ["tuned"], seed=7, game_index=3, deal=0, decision=10)
    deals, games = resume(pos, ["random"])        # the deal and the game played on from there
    view = import_module(GAME.position_module).observe(pos, seat=pos.seat)
    other = import_module(GAME.position_module).resample(view, rng)   # a Position consistent with view

A position holds the game's deal header (what the game was before the deal: dealer, totals,
the deal's cards in dealing order, anything a game carries from deal to deal), the tape of
the deal's decisions so far, each in the game's canonical terms (a card, a call, a draw source
...), and the strategies' random streams at the stop. Resuming plays the deal again from its
cards with the tape's answers forced, then asks the strategies (simulator.track).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from importlib import import_module

import numpy as np

from cardsim.simulator import engine
from cardsim.simulator import track as T
from cardsim.simulator.errors import StrategyError, UsageError


class TapeError(ValueError):
    """A position's decisions are not legal on its cards (a resampled or hand-made one)."""


@dataclass
class Position:
    game: str  # the game's name
    rules: dict  # resolved rules
    seed: int
    game_index: int
    deal: int  # the deal the position is in
    header: np.ndarray  # int64: the game's deal header (its kernel's layout)
    tape: np.ndarray  # int32: the deal's decisions so far, in the game's canonical terms
    stash: np.ndarray | None  # uint64 (rows, 2): the strategies' streams at the stop (None:
    # fresh streams: a resampled or hand-made position, whose past draws are unknown)
    seat: int = -1  # whose decision it is
    kind: int = -1  # which decision (the game's decision number)
    deals_mode: bool = False
    rot_k: int = 0  # duplicate seating's rotation count of the run it came from
    extra: dict = field(default_factory=dict)  # what a game's observe/resample add

    def copy(self) -> "Position":
        return Position(self.game, dict(self.rules), self.seed, self.game_index, self.deal,
                        self.header.copy(), self.tape.copy(),
                        None if self.stash is None else self.stash.copy(), self.seat,
                        self.kind, self.deals_mode, self.rot_k, dict(self.extra))


def _prepared(game, rules, strategies, seed, deals_mode, rot_k, registry=None):
    defs, params, described = game.resolve_strategies(strategies, rules, registry)
    ctx, fns = game.prepare(rules, defs, params, rot_k)
    return ctx._replace(seed=np.uint64(seed), deals_mode=bool(deals_mode)), fns, described


def _kernel(game):
    return import_module(game.kernel_module).KERNEL


def decision_names(game) -> tuple[str, ...]:
    """The game's decision kinds by number ("bid", "play" ...)."""
    return import_module(game.kernel_module.rpartition(".")[0] + ".view").DECISIONS


def _blank(game):
    """Tracking arrays of the game's size (its kernel's HEADER, TAPE_CAP, STREAM_ROWS)."""
    km = import_module(game.kernel_module)
    if not hasattr(km, "TAPE_CAP"):
        raise UsageError(f"{game.name}: positions are not available for this game yet")
    trk = np.zeros(T.T_HEAD + km.HEADER + 2 * km.STREAM_ROWS, np.int64)
    trk[T.T_STASH] = T.T_HEAD + km.HEADER
    return trk, np.zeros(km.TAPE_CAP, np.int32), np.zeros((km.STREAM_ROWS, 2), np.uint64)


def _header(trk) -> np.ndarray:
    """The deal header part of ``trk`` (a view)."""
    return trk[T.T_HEAD:trk[T.T_STASH]]


def _run(game, ctx, fns, described, game_index, trk, tape, stash, debug, logged=False,
         preset=None):
    k = _kernel(game)
    cap, rows = 64, 1 << 12
    while True:
        log = np.zeros((rows, k.log_w), np.int32) if logged else None
        at = int(trk[T.T_STASH])  # the stash travels inside trk, as int64 bit patterns
        trk[at:] = stash.view(np.int64).ravel()
        status, deal_cols, game_row, err, trk_o, tape_o = k.track(
            ctx, fns, game_index, trk, tape, debug, cap, game.deal_ncols, game.game_ncols, log,
            preset)
        stash_o = trk_o[at:].copy().view(np.uint64).reshape(stash.shape)
        if status == engine.ROWS_FULL:
            cap *= 8
        elif status == engine.LOG_FULL:
            rows *= 8
        else:
            break
    if status == T.BAD_TAPE:
        raise TapeError(f"{game.name}: decision {int(trk_o[T.T_N])} of the position is not "
                        "legal on its cards")
    if status not in (engine.OK, T.STOPPED):
        msg = game.describe_error(int(status), game_index, int(err[0]), int(err[1]),
                                  int(err[2]), described)
        raise AssertionError(msg) if status == engine.INVARIANT else StrategyError(msg)
    if logged:
        return status, deal_cols, game_row, trk_o, tape_o, stash_o, log
    return status, deal_cols, game_row, trk_o, tape_o, stash_o


def decisions(game, rules: dict, strategies: list[str], seed: int, game_index: int, deal: int,
              deals_mode: bool = False, rot_k: int = 0, registry=None) -> int:
    """How many decisions deal ``deal`` of the game has (0: no such deal)."""
    ctx, fns, described = _prepared(game, rules, strategies, seed, deals_mode, rot_k, registry)
    trk, tape, stash = _blank(game)
    trk[T.T_WANT] = 1
    trk[T.T_DEAL] = deal
    trk[T.T_STOP] = -1
    _, _, _, trk, _, _ = _run(game, ctx, fns, described, game_index, trk, tape, stash, False)
    return int(trk[T.T_N])


def snapshot(game, rules: dict, strategies: list[str], seed: int, game_index: int, deal: int,
             decision: int, deals_mode: bool = False, rot_k: int = 0, registry=None,
             debug: bool = True, preset=None) -> Position | None:
    """Game ``game_index`` played until decision ``decision`` (from 0) of deal ``deal``: the
    position there, or None when the game has no such decision. ``preset``: deal ``deal``'s
    deck as dealt (simulator.constrained), instead of its shuffle."""
    ctx, fns, described = _prepared(game, rules, strategies, seed, deals_mode, rot_k, registry)
    trk, tape, stash = _blank(game)
    trk[T.T_WANT] = 1
    trk[T.T_DEAL] = deal
    trk[T.T_STOP] = decision
    trk[T.T_RECORD] = 1
    status, _, _, trk, tape, stash = _run(game, ctx, fns, described, game_index, trk, tape,
                                          stash, debug, preset=preset)
    if status != T.STOPPED:
        return None
    return Position(game.name, dict(rules), int(seed), int(game_index), int(deal),
                    _header(trk).copy(), tape[:decision].copy(), stash.copy(),
                    int(trk[T.T_SEAT]), int(trk[T.T_KIND]), bool(deals_mode), int(rot_k))


def dealt(game, rules: dict, strategies: list[str], seed: int, game_index: int, deal: int,
          fixed: dict[str, list[int]], dealer: int | None = None, deals_mode: bool = False,
          rot_k: int = 0, registry=None, tries: int = 1000) -> Position:
    """The start of deal ``deal`` holding the cards ``fixed`` (place -> card codes, the
    game's places by seat: ``hand2``, ``foot0``, ``upcard`` ...), every other card dealt at
    random (simulator.constrained, from the seed and game index), the deals before it played
    by ``strategies``. The dealer is the game's; with ``dealer``, the first game from
    ``game_index`` on whose deal ``deal`` that seat deals (a hand-written position file)."""
    from cardsim.simulator import constrained as C

    pm = import_module(game.position_module)
    for gi in range(game_index, game_index + (tries if dealer is not None else 1)):
        base = snapshot(game, rules, strategies, seed, gi, deal, 0, deals_mode, rot_k,
                        registry)
        if base is None:
            raise UsageError(f"deal {deal}: game {gi} of seed {seed} has no such deal")
        start = next(e for e in events(base) if e["event"] == "deal" and e["deal"] == deal)
        who = int(start["dealer"] if "dealer" in start else start["hand_dealer"])
        if dealer is None or who == dealer:
            break
    else:
        raise UsageError(f"dealer {dealer}: that seat deals deal {deal} in none of games "
                         f"{game_index}..{game_index + tries - 1} of seed {seed}")
    spec = C.build(pm.deck(rules), pm.places(rules, who, deal), fixed, [], pm.CARD_POINTS)
    deck = C.deals(spec, seed, 1, gi)[0][0]
    return snapshot(game, rules, strategies, seed, gi, deal, 0, deals_mode, rot_k, registry,
                    preset=deck)


def _resume_arrays(game, pos: Position):
    trk, tape, stash = _blank(game)
    n = len(pos.tape)
    if n > len(tape):
        raise UsageError(f"position: {n} decisions on the tape, more than the game's "
                         f"{len(tape)}")
    trk[T.T_WANT] = 1
    trk[T.T_RESUME] = 1
    trk[T.T_DEAL] = pos.deal
    trk[T.T_STOP] = -1
    trk[T.T_TAPE_N] = n
    _header(trk)[:] = pos.header
    tape[:n] = pos.tape
    if pos.stash is not None:
        stash[:] = pos.stash
        trk[T.T_RESTORE] = 1
    return trk, tape, stash


def resume(pos: Position, strategies: list[str], registry=None, debug: bool = True,
           stop: int | None = None):
    """The game of ``pos`` played on from the position with ``strategies``: (deal rows from
    the position's deal on, game row) as typed frames (the games frame None in deals mode).
    With ``stop``, it stops again before decision ``stop`` of the deal and returns that
    Position instead (``stop`` >= the tape's length)."""
    from cardsim.simulator.games import get_game

    game = get_game(pos.game)
    ctx, fns, described = _prepared(game, pos.rules, strategies, pos.seed, pos.deals_mode,
                                    pos.rot_k, registry)
    trk, tape, stash = _resume_arrays(game, pos)
    if stop is not None:
        trk[T.T_STOP] = stop
        trk[T.T_RECORD] = 1
    status, deal_cols, game_row, trk, tape, stash = _run(
        game, ctx, fns, described, pos.game_index, trk, tape, stash, debug)
    if stop is not None:
        if status != T.STOPPED:
            return None
        return Position(pos.game, dict(pos.rules), pos.seed, pos.game_index, pos.deal,
                        _header(trk).copy(), tape[:stop].copy(), stash.copy(),
                        int(trk[T.T_SEAT]), int(trk[T.T_KIND]), pos.deals_mode, pos.rot_k)
    deals, games = game.frames(deal_cols, game_row[None, :], pos.game_index, pos.deals_mode)
    return deals, games


def events(pos: Position, registry=None) -> list[dict]:
    """The position's game as the replay's events (docs/replay.md), up to the stop: what was
    dealt, called and played, by whom. The strategies never decide (the tape is forced)."""
    return _logged(pos, ["random"], len(pos.tape), registry)


def play_on_events(pos: Position, strategies: list[str], registry=None) -> list[dict]:
    """The position's game played on to its end by ``strategies``, as the replay's events
    from the start: the tape's decisions, then the strategies' own."""
    return _logged(pos, strategies, -1, registry)


def _logged(pos: Position, strategies: list[str], stop: int, registry) -> list[dict]:
    from cardsim.simulator.games import get_game

    game = get_game(pos.game)
    ctx, fns, described = _prepared(game, pos.rules, strategies, pos.seed, pos.deals_mode,
                                    pos.rot_k, registry)
    trk, tape, stash = _resume_arrays(game, pos)
    trk[T.T_STOP] = stop
    *_, log = _run(game, ctx, fns, described, pos.game_index, trk, tape, stash, True,
                   logged=True)
    decode = import_module(game.kernel_module.rpartition(".")[0] + ".replay").decode
    return decode(log, pos.seed, pos.game_index, pos.rules, described, pos.deals_mode,
                  pos.rot_k)


def deal_unseen(pool: list[int], others: list[int], size: int, played: dict, voids: dict,
                rng: np.random.Generator):
    """One uniform deal of the unseen cards ``pool`` for a trick-taking game's resample: each
    seat in ``others`` holds the cards it was seen to play (``played[s]``) and unseen ones up
    to ``size``, none of a suit it showed out of (``voids[s]``, suits as ``code // 13``), in a
    random order. Returns (hands by seat, the unseen cards left over), or None when the draw
    broke a void: the caller draws again, and that rejection keeps the deal uniform."""
    order = rng.permutation(len(pool))
    at, hands = 0, {}
    for s in others:
        k = size - len(played[s])
        extra = [pool[j] for j in order[at:at + k]]
        at += k
        if any(c // 13 in voids[s] for c in extra):
            return None
        cards = played[s] + extra
        hands[s] = [cards[j] for j in rng.permutation(len(cards))]
    return hands, [pool[j] for j in order[at:]]


def first_consistent(draw, consistent, tries: int) -> Position:
    """A resample's loop: draw candidate positions until one is consistent with the view.
    ``draw()`` returns a candidate Position or, when it could not make one, the reason (a
    short text); ``consistent(position)`` says whether the candidate replays as the seat saw
    it (raising TapeError when its tape is not legal on its cards). Refused after ``tries``
    draws, naming how often each reason came up."""
    why: dict[str, int] = {}
    for _ in range(tries):
        got = draw()
        if isinstance(got, str):
            reason = got
        else:
            try:
                if consistent(got):
                    return got
                reason = "not the events seen"
            except TapeError:
                reason = "not a legal tape"
        why[reason] = why.get(reason, 0) + 1
    raise ValueError(f"no deal consistent with the view in {tries} tries ("
                     + ", ".join(f"{k}: {v}" for k, v in why.items()) + ")")


def play_tracked(game, rules: dict, strategies: list[str], seed: int, game_index: int,
                 deals_mode: bool = False, rot_k: int = 0, registry=None, debug: bool = True):
    """Game ``game_index`` played whole through the tracking driver (no stop): its rows as
    typed frames, as a run would write them."""
    ctx, fns, described = _prepared(game, rules, strategies, seed, deals_mode, rot_k, registry)
    trk, tape, stash = _blank(game)
    _, deal_cols, game_row, *_ = _run(game, ctx, fns, described, game_index, trk, tape, stash,
                                      debug)
    return game.frames(deal_cols, game_row[None, :], game_index, deals_mode)
