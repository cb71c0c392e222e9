"""Plateau (Jim Albea, 1986): set-up positions and their checks, views of the hidden faces,
determinization, the text diagram and the public state class, on top of the compiled kernel
``plateau_core.albea.core`` (the notation is ``plateau.games.albea.notation``'s).

Rules: ``docs/rules/albea-plateau.md`` (decisions the rules left open: ``docs/albea-plateau.md``).
"""

from __future__ import annotations

import itertools
import numbers
import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from plateau_core.albea import batch as _ab
from plateau_core.albea import core as _a

from plateau.checks import check_int, folded, shown
from plateau.errors import (
    InvalidActionError,
    InvalidArgumentError,
    InvalidPositionError,
    UnknownVariantError,
    position_errors,
)
from plateau.games.albea import notation as _notation
from plateau.notation import square_index, square_name
from plateau.state import Determinizer as _Determinizer
from plateau.state import GameState, RandomSource

BLACK, WHITE = 0, 1
OWNER_LETTER = "BW"
TYPES: tuple[str, ...] = tuple(_a.TYPES)
COUNT: dict[str, int] = dict(zip(TYPES, _a.COUNT))
VALUE: dict[str, int] = dict(zip(TYPES, _a.VALUE))
#: oriented piece codes (up face first) -> (type, up)
ORIENTED: dict[str, tuple[str, int]] = {}
for _t in TYPES:
    ORIENTED[_t] = (_t, 0)
    if _t[0] != _t[1]:
        ORIENTED[_t[::-1]] = (_t, 1)
_TIX = {t: i for i, t in enumerate(TYPES)}
PHASES: tuple[str, ...] = tuple(_a.PHASES)
_PLAYER_NAMES = ("Black", "White")
_DIRS = {
    "r": "one orthogonal direction",
    "b": "one diagonal direction",
    "x": "any of the 8 directions",
    "o": "the Twister path",
}


def multiset_text(ms: Mapping[str, int]) -> str:
    """Codes of a multiset of types, highest value first (the page's canonical order)."""
    return ",".join(t for t in reversed(TYPES) for _ in range(ms.get(t, 0)))


def multiset_value(ms: Mapping[str, int]) -> int:
    return sum(VALUE[t] * n for t, n in ms.items())


def _piece(pc: _a.Piece) -> dict[str, Any]:
    """A piece of ``AlbeaCore._board()`` as ``{owner, type, up, shown}``."""
    owner, t, up, shown0, shown1 = pc
    return {"owner": owner, "type": TYPES[t], "up": up, "shown": [shown0, shown1]}


def _code(pc: _a.Piece) -> str:
    """The oriented code of a piece: its up face, then its down face."""
    t = TYPES[pc[1]]
    return t[::-1] if pc[2] else t


def _seen(pc: _a.Piece) -> tuple[str, str, bool]:
    """Up and down face of a piece as its opponent has seen them (``?`` unseen), and whether
    the opponent knows its type (both faces seen, or an orange face seen)."""
    _owner, t, up, shown0, shown1 = pc
    faces = [TYPES[t][0] if shown0 else "?", TYPES[t][1] if shown1 else "?"]
    known = (shown0 and shown1) or "o" in faces
    return faces[up], faces[1 - up], known


def _public_text(text: str) -> str:
    """An action as the opponent sees it: opening and onboard faces redacted to the placed up
    face (``??,b?@a1``, ``r?@c3/1``); everything else as written."""
    if "@" not in text:
        return text
    if "," in text:
        pieces, sq = text.split("@")
        return f"??,{pieces.split(',')[1][0]}?@{sq}"
    return f"{text[0]}?{text[2:]}"


class AlbeaPlateauState(_a.AlbeaCore, GameState):
    """A game of Plateau (Jim Albea, 1986) in progress: the referee's full truth.

    Players: 0 Black (opens), 1 White. A bot or a player sees only ``observation(p)``;
    ``view_for(p, seed)`` (what the arena hands bots) is a determinization drawn from it.

    >>> import plateau
    >>> s = plateau.new_game("albea-plateau")
    >>> s.num_legal_actions(), s.perft(2)
    (1260, 1455300)
    >>> s.apply("xx,rb@a1"); s.observation(1)["board"][0]
    [{'owner': 0, 'faces': '??', 'type': None}, {'owner': 0, 'faces': 'r?', 'type': None}]
    """

    __slots__ = ()
    game = "albea-plateau"

    def __init__(self, variant: str = "standard", max_plies: int = 0) -> None:
        if variant != "standard":
            raise UnknownVariantError(
                f"unknown variant {shown(variant)} of 'albea-plateau'; known variants: standard"
            )
        self._core_init(max_plies)

    @property
    def variant(self) -> str:
        return "standard"

    @property
    def options(self) -> dict[str, Any]:
        return {"max_plies": self.max_plies}

    def points_by_place(self) -> tuple[float, ...]:
        return (1.0, 0.0)

    def ranking(self) -> list[list[int]]:
        """``[[winner], [loser]]`` after a win, else ``[[0, 1]]`` (a draw, or "if it ended
        now": a game stopped early is a draw)."""
        w = self.winner
        if w is None:
            return [[0, 1]]
        return [[w], [1 - w]]

    # -- notation ----------------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        """Canonical notation of any action id (legal here or not)."""
        return _notation.format_action(self.action_id(action))

    def parse_action(self, text: str) -> int:
        """The id of notation ``text`` (either letter case, multisets in any order); not
        checked for legality. InvalidActionError names what is wrong."""
        if not isinstance(text, str):
            raise InvalidActionError(f"notation must be a str, got {type(text).__name__}")
        try:
            return _notation.parse_action(text)
        except (ValueError, IndexError, KeyError) as e:
            raise InvalidActionError(
                f"cannot read {shown(text)} as a Plateau action: {e}"
            ) from None

    def decode_fields(self, action: int) -> dict[str, Any]:
        """The fields of an action id: ``category`` plus that category's fields (for
        factorised policy heads over the fixed ids)."""
        a = self.action_id(action)
        kind, f = _a.decode(a)
        if kind == "opening":
            return {"category": kind, "bottom": f[0], "top": f[1], "square": f[2]}
        if kind == "onboard":
            return {"category": kind, "piece": f[0], "square": f[1], "gap": f[2]}
        if kind == "move":
            o, flip, k, path, code = _a.move_fields(a)
            squares, carries = f[3], f[4]
            return {
                "category": kind,
                "origin": o,
                "flip": flip,
                "k": k,
                "path": path,
                "code": code,
                "stops": [*zip(squares, carries), (squares[-1], None)],
            }
        if kind == "stomp":
            return {"category": kind, "square": f[0], "flip": f[1]}
        if kind in ("offer", "give"):
            return {"category": kind, "pieces": _notation.counts_text(f).split(",")}
        return {"category": kind}

    # -- why an action is illegal -------------------------------------------------------------

    def _why_illegal(self, action: int) -> str:
        a = action
        me = self.current_player
        phase = self.phase
        f = self.decode_fields(a)
        cat = f["category"]
        if phase == "opening":
            if cat != "opening":
                return "each player first places an opening pair (plies 0 and 1)"
            return self._why_opening(f)
        if phase == "respond":
            if cat not in ("give", "refuse"):
                return "an offer is pending: the only answers are give:... and refuse"
            return self._why_answer(f)
        if cat in ("opening", "give", "refuse"):
            return {
                "opening": "the openings are over",
                "give": "there is no offer to answer",
                "refuse": "there is no offer to answer",
            }[cat]
        if cat == "pass":
            return "pass is legal only when no onboard, move or offer is"
        if cat == "onboard":
            return self._why_onboard(f, me)
        if cat == "offer":
            held = self.prisoners(me)
            pieces: list[str] = f["pieces"]
            if any(pieces.count(t) > held.get(t, 0) for t in set(pieces)):
                return f"player {me} does not hold those prisoners"
            v = sum(VALUE[t] for t in pieces)
            return f"its value {v} does not exceed the refused value {self.floor[me]}"
        return self._why_move(f, me)

    def _why_opening(self, f: dict[str, Any]) -> str:
        if self._board()[f["square"]]:
            return f"{square_name(f['square'], 4)} is taken"
        return "the pair uses a one-off piece twice"

    def _why_answer(self, f: dict[str, Any]) -> str:
        tender = self.tender or {}
        if f["category"] == "refuse":
            return "a refusal is legal only when no prisoners worth at most the offer can be given"
        pieces: list[str] = f["pieces"]
        held = self.prisoners(self.current_player)
        if any(pieces.count(t) > held.get(t, 0) for t in set(pieces)):
            return f"player {self.current_player} does not hold those prisoners"
        offer = multiset_value(tender)
        best = max(
            (
                sum(VALUE[t] * n for t, n in zip(held, ns))
                for ns in itertools.product(*(range(c + 1) for c in held.values()))
            ),
            key=lambda v: v if v <= offer else -1,
        )
        return (
            f"its value {sum(VALUE[t] for t in pieces)} is below {best}, the largest value "
            f"player {self.current_player} can give for an offer worth {offer}"
        )

    def _why_onboard(self, f: dict[str, Any], me: int) -> str:
        ptype, _up = ORIENTED[_notation.OT_CODES[f["piece"]]]
        if not self.reserve(me).get(ptype):
            return f"player {me} has no {ptype} in reserve"
        stack = self._board()[f["square"]]
        g, n = f["gap"], len(stack)
        if g > n:
            return f"gap {g} is above the stack's {n} pieces"
        return "a piece may be onboarded only next to one of the player's own pieces"

    def _why_move(self, f: dict[str, Any], me: int) -> str:
        sq = f["square"] if f["category"] == "stomp" else f["origin"]
        name = square_name(sq, 4)
        stack = self._board()[sq]
        if not stack:
            return f"{name} is empty"
        if stack[-1][0] != me:
            return f"the stack on {name} is topped by the opponent"
        top = _piece(stack[-1])
        if f["flip"] and top["type"][0] == top["type"][1]:
            return f"a {top['type']} shows the same face on both sides: a flip is not an action"
        h = 0
        while h < len(stack) and stack[-1 - h][0] == me:
            h += 1
        face = top["type"][top["up"] ^ f["flip"]]
        if f["category"] == "stomp":
            if face == "x":
                return "a stomp needs a colored top face"
            return f"no enemy piece lies under the top unit on {name}"
        if f["k"] > h:
            return f"the top unit on {name} has only {h} piece(s)"
        o, path = f["origin"], f["path"]
        need = "o" if path >= 8 else ("r" if path < 4 else "b")
        if face != "x" and face != need:
            article = "an" if face == "o" else "a"
            return f"{article} {face} face up moves along {_DIRS[face]}"
        if face == "x" and path >= 8:
            return "a blank face up moves along one of the 8 rays"
        far = max(max(abs(s % 4 - o % 4), abs(s // 4 - o // 4)) for s, _ in f["stops"])
        if path < 8 and far > h:
            return f"the top unit on {name} has {h} piece(s), so it may travel at most {h}"
        return "a stop breaks the rules of stacking, pinning or capture (see rules, Move 5)"

    # -- the board ----------------------------------------------------------------------------

    def stack(self, square: int | str) -> list[dict[str, Any]]:
        """The pieces on ``square`` (index or name), bottom..top, as ``{owner, type, up,
        shown}`` (the full truth)."""
        return [_piece(pc) for pc in self._board()[self._sq(square)]]

    def board(self) -> list[list[dict[str, Any]]]:
        """All 16 stacks (square index order) as :meth:`stack` gives them."""
        return [[_piece(pc) for pc in st] for st in self._board()]

    def _sq(self, square: int | str) -> int:
        if isinstance(square, str):
            try:
                return square_index(square, 4)
            except ValueError:
                raise InvalidArgumentError(
                    f"square {shown(square)} is off the 4x4 board (a1..d4)"
                ) from None
        if isinstance(square, bool) or not isinstance(square, numbers.Integral):
            raise InvalidArgumentError(
                f"square must be a name or an index in [0, 16), got {shown(square)}"
            )
        return check_int(square, "square", 0, 16)

    def position_dict(self) -> dict[str, Any]:
        """The full truth as plain data (the reference implementation's ``to_dict()`` without
        its history); :meth:`from_position_dict` rebuilds it."""
        tender = self.tender
        return {
            "options": {"max_plies": self.max_plies or None},
            "board": self.board(),
            "reserve": [self.reserve(0), self.reserve(1)],
            "prisoners": [self.prisoners(0), self.prisoners(1)],
            "to_move": self._raw_player(),
            "phase": self.phase,
            "offerer": self.offerer,
            "tender": tender,
            "floor": self.floor,
            "passes": self.passes,
            "result": self.result,
            "winner": self.winner,
            "ply": self.ply,
        }

    def _position_key(self) -> object:
        # the full truth, shown flags included (they decide what each player knows); not ply
        key = self.position_dict()
        del key["ply"]
        return key

    @classmethod
    def from_position_dict(cls, data: Mapping[str, Any]) -> AlbeaPlateauState:
        """A state (no history) from :meth:`position_dict` data; InvalidPositionError if it is
        not a position this engine can represent (more pieces than exist, a run of six or six
        prisoners in an unfinished game, ...)."""
        state = cls()
        with position_errors():
            if not isinstance(data, Mapping):
                raise InvalidArgumentError(f"a position is a dict, got {type(data).__name__}")
            try:
                state.load_dict(dict(data))
            except (KeyError, TypeError, IndexError, AttributeError) as e:
                raise InvalidArgumentError(f"bad position data: {shown(e)}") from None
        return state

    def load_dict(self, d: dict[str, Any]) -> None:
        """Replace the position (history cleared) by ``position_dict()``-style data (the
        reference's ``to_dict()``), after checking every field: InvalidPositionError names the
        first bad one, and the state is left as it was. Rejects what the id space cannot
        represent (design 1.1): more pieces than exist, a stack above 24, a run of six or six
        prisoners while the game is not over; and a position whose player to act has no legal
        action."""
        with position_errors():
            raw = _checked_position(d)
            probe = type(self)()
            probe._load_raw(**raw)
            if not probe.is_terminal() and probe.num_legal_actions() == 0:
                # only the opening has no forced fallback (play has pass, respond has refuse)
                raise InvalidArgumentError(
                    f"{_PLAYER_NAMES[probe.current_player]} must act in the {probe.phase} "
                    "phase but has no legal action (an opening needs two pieces in reserve "
                    "and an empty perimeter square)"
                )
        self._load_raw(**raw)

    @classmethod
    def from_position(
        cls,
        stacks: Mapping[str, str],
        to_move: int,
        prisoners: Sequence[Sequence[str]] = ((), ()),
        reserve: Sequence[Mapping[str, int]] | None = None,
        floor: Sequence[int] = (0, 0),
        passes: int = 0,
        max_plies: int = 0,
    ) -> AlbeaPlateauState:
        """A ``play``-phase position in the page's position notation, e.g.
        ``from_position({"b2": "Bxx Wrr"}, to_move=1)``: owner ``B``/``W`` then the up face
        and the down face of each piece, bottom..top. ``prisoners[p]`` lists the types of the
        opponent's pieces that ``p`` holds; ``reserve`` defaults to the rest of each player's
        12 pieces. Shown flags: the up face of every top piece."""
        with position_errors():
            try:
                data = cls._setup_data(
                    stacks, to_move, prisoners, reserve, floor, passes, max_plies
                )
            except TypeError as e:
                raise InvalidArgumentError(f"bad set-up arguments: {e}") from None
        return cls.from_position_dict(data)

    @staticmethod
    def _setup_data(
        stacks: Mapping[str, str],
        to_move: int,
        prisoners: Sequence[Sequence[str]],
        reserve: Sequence[Mapping[str, int]] | None,
        floor: Sequence[int],
        passes: int,
        max_plies: int,
    ) -> dict[str, Any]:
        board: list[list[dict[str, Any]]] = [[] for _ in range(16)]
        if not isinstance(stacks, Mapping):
            raise InvalidArgumentError(
                f"stacks must map square names to pieces, got {shown(stacks)}"
            )
        for name, text in stacks.items():
            if not isinstance(name, str):
                raise InvalidArgumentError(
                    f"stacks must map square names to strings, got key {shown(name)}"
                )
            if not isinstance(text, str):
                raise InvalidArgumentError(
                    f"the stack on {shown(name)} must be a string of pieces like 'Bxx Wrb', got "
                    f"{shown(text)}"
                )
            pieces: list[dict[str, Any]] = []
            for token in text.split():
                owner = OWNER_LETTER.find(token[0].upper())
                code = folded(token[1:]) or ""
                if owner < 0 or code not in ORIENTED:
                    raise InvalidArgumentError(
                        f"piece {shown(token)} on {name}: owner B or W, then the up face and the "
                        f"down face of one of {', '.join(TYPES)}"
                    )
                ptype, up = ORIENTED[code]
                pieces.append({"owner": owner, "type": ptype, "up": up, "shown": [False, False]})
            if pieces:
                pieces[-1]["shown"][pieces[-1]["up"]] = True
            board[square_index(name, 4)] = pieces
        if len(prisoners) != 2 or any(t not in COUNT for p in prisoners for t in p):
            raise InvalidArgumentError(
                f"prisoners must be two lists of piece types, got {shown(prisoners)}"
            )
        max_plies = check_int(max_plies, "max_plies", 0, 2**30)
        held = [{t: list(prisoners[p]).count(t) for t in set(prisoners[p])} for p in (0, 1)]
        if reserve is None:
            rest = [dict(COUNT), dict(COUNT)]
            for st in board:
                for pc in st:
                    rest[pc["owner"]][pc["type"]] -= 1
            for p in (0, 1):
                for t, n in held[p].items():
                    rest[1 - p][t] -= n
            for p, r in enumerate(rest):
                for t, n in r.items():
                    if n < 0:
                        raise InvalidArgumentError(
                            f"{('Black', 'White')[p]} would have {COUNT[t] - n} x {t} on the "
                            f"board and held by the opponent; only {COUNT[t]} exist"
                        )
            reserve = [{t: n for t, n in r.items() if n} for r in rest]
        data = {
            "options": {"max_plies": max_plies or None},
            "board": board,
            "reserve": [dict(r) for r in reserve],
            "prisoners": held,
            "to_move": to_move,
            "phase": "play",
            "offerer": None,
            "tender": None,
            "floor": list(floor),
            "passes": passes,
            "result": None,
            "winner": None,
            "ply": 0,
        }
        return data

    # -- hidden information -------------------------------------------------------------------

    def observation(self, player: int | None = None) -> dict[str, Any]:
        """What ``player`` (default: the player to act; 0 once over) may see (the rules page,
        Hidden information): own pieces in full; each opponent piece as its owner, its faces
        as seen (up face first, ``?`` unseen) and its type only when both faces were seen or a
        face is orange; the opponent's reserve as a count; prisoners, a pending tender and the
        history (opponent's openings and onboards redacted to the placed up face)."""
        p = self._viewer(player)
        out = self._observed_now(p)
        out["history"] = self.history_strings(viewer=p)
        return out

    def _observed_now(self, p: int) -> dict[str, Any]:
        """:meth:`observation` of player ``p`` (checked) but its ``"history"``, which costs as
        much as the game is long (the renderer draws every picture of a game from this)."""
        board = []
        for st in self._board():
            pieces = []
            for pc in st:
                if pc[0] == p:
                    pieces.append({"owner": p, "faces": _code(pc), "type": TYPES[pc[1]]})
                else:
                    up, down, known = _seen(pc)
                    ptype = TYPES[pc[1]] if known else None
                    pieces.append({"owner": pc[0], "faces": up + down, "type": ptype})
            board.append(pieces)
        tender = self.tender
        return {
            "player": p,
            "ply": self.ply,
            "phase": self.phase,
            "current_player": self.current_player,
            "board": board,
            "my_reserve": self.reserve(p),
            "opponent_reserve_count": sum(self.reserve(1 - p).values()),
            "prisoners": [
                multiset_text(self.prisoners(q)).split(",") if self.prisoners(q) else []
                for q in (0, 1)
            ],
            "tender": None
            if tender is None
            else {"offerer": self.offerer, "pieces": multiset_text(tender).split(",")},
            "floor": self.floor,
            "passes": self.passes,
            "result": self.result,
            "winner": self.winner,
        }

    def _plane_highs(self) -> dict[int, float]:
        # plane 274 counts the consecutive passes (two end the game as a draw)
        return {274: 2.0}

    def observation_string(self, player: int | None = None) -> str:
        """:meth:`observation` as text: one line per non-empty square, bottom..top, each piece
        an owner letter and its faces as ``player`` knows them (``B??``, ``Wr?``, ``Bxo``)."""
        obs = self.observation(player)
        lines = []
        for sq, st in enumerate(obs["board"]):
            if st:
                text = " ".join(OWNER_LETTER[pc["owner"]] + pc["faces"] for pc in st)
                lines.append(f"{square_name(sq, 4)}: {text}")
        mine = " ".join(f"{t}{n}" for t, n in obs["my_reserve"].items()) or "-"
        lines.append(f"reserve: {mine} | opponent reserve: {obs['opponent_reserve_count']}")
        pris = " | ".join(
            f"{OWNER_LETTER[q]} {','.join(obs['prisoners'][q]) or '-'}" for q in (0, 1)
        )
        lines.append(f"prisoners: {pris}")
        if obs["tender"] is not None:
            t = obs["tender"]
            lines.append(f"offer by {OWNER_LETTER[t['offerer']]}: {','.join(t['pieces'])}")
        lines.append(
            f"floor {obs['floor'][0]}/{obs['floor'][1]}, passes {obs['passes']}, "
            f"ply {obs['ply']}, {self._status()}"
        )
        lines.append(f"(seen by {'Black' if obs['player'] == 0 else 'White'})")
        return "\n".join(lines)

    def _status(self) -> str:
        if self.result == "draw":
            return "drawn"
        if self.winner is not None:
            return f"{('Black', 'White')[self.winner]} won"
        return f"{('Black', 'White')[self.current_player]} to act"

    def determinizer(self, player: int) -> Determinizer:
        """A sampler of states consistent with ``player``'s view (see
        :class:`~plateau.games.albea.state.Determinizer`): the hidden rest (opponent pieces not
        identified, the opponent's reserve) is drawn uniformly from the consistent worlds. Build
        it once and call ``.sample(rng)`` for many determinizations; ``resample_hidden`` and
        ``view_for`` draw one."""
        return Determinizer(self, player)

    def _player(self, player: object) -> int:
        # the compiled core checks the player of reserve(), prisoners() and
        # observation_tensor() through this (a Python-level lookup): route it through the
        # shared checker, so that every game and method words a bad player alike
        return self._check_player(player)

    # -- records ------------------------------------------------------------------------------

    def history_strings(self, viewer: int | None = None) -> list[str]:
        """The applied actions in notation; with ``viewer``, the opponent's openings and
        onboards redacted to what ``viewer`` saw."""
        texts = [_notation.format_action(a) for a in self.history]
        if viewer is None:
            return texts
        v = self._check_player(viewer, "viewer")
        return [t if who == v else _public_text(t) for t, who in zip(texts, self._actors())]

    def _action_as_seen(self, action: int, viewer: int) -> str:
        text = _notation.format_action(action)
        return text if viewer == self.current_player else _public_text(text)

    def setup_position(self, viewer: int | None = None) -> dict[str, Any] | None:
        """The set-up position the history starts from (``position_dict`` form), or None for
        a game from the opening. With ``viewer``: that player's observation of it instead
        (hidden faces redacted)."""
        if viewer is not None:
            viewer = self._check_player(viewer, "viewer")
        root: AlbeaPlateauState | None = self._root()
        if root is None:
            return None
        if viewer is None:
            return root.position_dict()
        view = root.observation(viewer)
        del view["history"]
        return view

    def _replay_probe(self) -> GameState:
        root = self._root()
        return root if root is not None else super()._replay_probe()

    # -- evaluation -----------------------------------------------------------------------------

    def heuristic(self, player: int) -> float:
        """Static value for ``player`` (antisymmetric): ``v(player) - v(opponent)`` with
        ``v = 10 * prisoners + 0.2 * their value + 3 * longest own run + 2 * own-topped
        stacks + weapons (colored own top units) standing on enemy pieces`` (computed in C)."""
        p = self._check_player(player)
        v = self._values()
        return float(v[p] - v[1 - p])

    # -- display -----------------------------------------------------------------------------

    def __str__(self) -> str:
        """The referee's diagram: every square bottom..top with all faces, then reserves,
        prisoners and the state of play."""
        lines = []
        for sq, st in enumerate(self._board()):
            if st:
                text = [OWNER_LETTER[pc[0]] + _code(pc) for pc in st]
                lines.append(f"{square_name(sq, 4)}: {' '.join(text)}")
        for q in (0, 1):
            res = " ".join(f"{t}{n}" for t, n in self.reserve(q).items()) or "-"
            held = multiset_text(self.prisoners(q)) or "-"
            lines.append(f"{('Black', 'White')[q]}: reserve {res}; prisoners {held}")
        if self.tender is not None:
            lines.append(
                f"offer by {OWNER_LETTER[self.offerer or 0]}: {multiset_text(self.tender)}"
            )
        lines.append(
            f"{self.game}, ply {self.ply}, floor {self.floor[0]}/{self.floor[1]}, {self._status()}"
        )
        return "\n".join(lines)


# ------------------------------------------------------------------------------------------
# Set-up positions: the checks of position data
# ------------------------------------------------------------------------------------------


#: the fields of a position dict (``position_dict()``), and the reference implementation's
#: ``history`` (its ``to_dict()`` has one), which is ignored
_POSITION_FIELDS = frozenset(
    {
        "history",
        "options",
        "board",
        "reserve",
        "prisoners",
        "to_move",
        "phase",
        "offerer",
        "tender",
        "floor",
        "passes",
        "result",
        "winner",
        "ply",
    }
)


def _checked_position(d: Any) -> dict[str, Any]:
    """The keyword arguments of ``AlbeaCore._load_raw`` for position data ``d`` (``position_dict()``
    form), after checking every field in turn; ValueError names the first bad one."""
    if not isinstance(d, dict):
        raise InvalidArgumentError(f"a position is a dict, got {type(d).__name__}")
    unknown = sorted(str(k) for k in d if k not in _POSITION_FIELDS)
    if unknown:
        raise InvalidArgumentError(
            f"unknown field {shown(unknown[0])} in the position "
            f"(fields: {', '.join(sorted(_POSITION_FIELDS))})"
        )
    opts = d.get("options") or {}
    if not isinstance(opts, dict):
        raise InvalidArgumentError("options must be a dict")
    mp = opts.get("max_plies")
    max_plies = 0 if mp is None else _small(mp, _a.MAX_PLY, "max_plies")
    board = _field(d, "board", list)
    if len(board) != 16:
        raise InvalidArgumentError("board must be a list of 16 stacks")
    used = [[0] * 7 for _ in range(2)]
    stacks: list[list[_a.Piece]] = []
    for sq in range(16):
        st = board[sq]
        if not isinstance(st, list) or len(st) > _a.STACK_CAP:
            raise InvalidArgumentError(
                f"stack {sq} must be a list of at most {_a.STACK_CAP} pieces"
            )
        pieces = []
        for i, pce in enumerate(st):
            if not isinstance(pce, dict):
                raise InvalidArgumentError(f"piece {i} of stack {sq} must be a dict")
            p = _small(pce.get("owner"), 2, "owner")
            ty = _type_index(pce.get("type"))
            up = _small(pce.get("up"), 2, "up")
            if up == 1 and TYPES[ty][0] == TYPES[ty][1]:
                raise InvalidArgumentError(
                    f"a {TYPES[ty]} has no second orientation (up must be 0)"
                )
            sh = pce.get("shown")
            if not (isinstance(sh, list) and len(sh) == 2 and type(sh[0]) is type(sh[1]) is bool):
                raise InvalidArgumentError("shown must be a list of two booleans")
            pieces.append((p, ty, up, sh[0], sh[1]))
            used[p][ty] += 1
        stacks.append(pieces)
    reserve = _pair(d, "reserve", dict)
    prisoners = _pair(d, "prisoners", dict)
    res = [[0] * 7 for _ in range(2)]
    pri = [[0] * 7 for _ in range(2)]
    for p in range(2):
        for name, cnt in reserve[p].items():
            ty = _type_index(name)
            res[p][ty] = _small(cnt, _a.COUNT[ty] + 1, f"reserve count of {name}")
            used[p][ty] += res[p][ty]
        for name, cnt in prisoners[p].items():
            ty = _type_index(name)
            pri[p][ty] = _small(cnt, _a.COUNT[ty] + 1, f"prisoner count of {name}")
            used[1 - p][ty] += pri[p][ty]
    for p in range(2):
        for ty in range(7):
            if used[p][ty] > _a.COUNT[ty]:
                raise InvalidArgumentError(
                    f"{_PLAYER_NAMES[p]} has {used[p][ty]} x {TYPES[ty]} on the board, "
                    f"in reserve and held by the opponent; only {_a.COUNT[ty]} exist"
                )
    phase_name = d.get("phase")
    if phase_name not in PHASES:
        raise InvalidArgumentError(
            f"phase must be one of {', '.join(PHASES)}, got {shown(phase_name)}"
        )
    phase = PHASES.index(phase_name)
    player = _small(d.get("to_move"), 2, "to_move")
    offerer = d.get("offerer")
    tender = d.get("tender")
    counts = [0] * 7
    if PHASES[phase] == "respond":
        offerer = _small(offerer, 2, "offerer")
        if offerer != 1 - player:
            raise InvalidArgumentError("the offerer must be the player not to act")
        if not isinstance(tender, dict) or not tender:
            raise InvalidArgumentError("the respond phase needs a non-empty tender")
        for name, cnt in tender.items():
            ty = _type_index(name)
            counts[ty] = _small(cnt, _a.COUNT[ty] + 1, f"tender count of {name}")
            if counts[ty] > pri[offerer][ty]:
                raise InvalidArgumentError("a tender must come from the offerer's prisoners")
        if sum(counts) == 0:
            raise InvalidArgumentError(
                "the respond phase needs a non-empty tender (an offer of no piece is not an offer)"
            )
    elif offerer is not None or tender is not None:
        raise InvalidArgumentError("an offerer and a tender belong to the respond phase only")
    else:
        offerer = -1
    floor = _field(d, "floor", list)
    if len(floor) != 2:
        raise InvalidArgumentError("floor must be a list of two values")
    floors = [_small(floor[p], 60, "floor") for p in range(2)]
    result = d.get("result")
    if result is None:
        outcome = -1
    elif result == "draw":
        outcome = 2
    elif result == "win":
        outcome = _small(d.get("winner"), 2, "winner")
    else:
        raise InvalidArgumentError(f"result must be None, 'win' or 'draw', got {shown(result)}")
    if result != "win" and d.get("winner") is not None:
        raise InvalidArgumentError(
            f"winner: only a won game has a winner, got {shown(d.get('winner'))}"
        )
    if (outcome >= 0) != (PHASES[phase] == "over"):
        raise InvalidArgumentError("a result needs the over phase, and the over phase a result")
    passes = _small(d.get("passes"), 3 if outcome == 2 else 2, "passes")
    ply = _small(d.get("ply"), _a.MAX_PLY, "ply")
    if PHASES[phase] != "over":
        # (a run of six or six prisoners in an unfinished game: the kernel's win test refuses
        # it in _load_raw, the one copy of that test)
        empty_edge = sum(1 for sq in _a.PERIMETER if not stacks[sq])
        if PHASES[phase] == "opening" and player == 0 and (sum(res[1]) < 2 or empty_edge < 2):
            # White opens right after Black: an opening it cannot make would leave a game
            # with no legal action one ply later
            raise InvalidArgumentError(
                "White opens right after Black: with Black to open, White needs two pieces "
                "in reserve and two perimeter squares must be empty"
            )
    return {
        "board": stacks,
        "reserve": res,
        "prisoners": pri,
        "tender": counts,
        "phase": phase,
        "player": player,
        "offerer": offerer,
        "floor": floors,
        "result": outcome,
        "passes": passes,
        "ply": ply,
        "max_plies": max_plies,
    }


def _field(d: dict[str, Any], key: str, kind: type) -> Any:
    v = d.get(key)
    if not isinstance(v, kind):
        raise InvalidArgumentError(f"{key} must be a {kind.__name__}, got {shown(v)}")
    return v


def _pair(d: dict[str, Any], key: str, kind: type) -> list[Any]:
    v = _field(d, key, list)
    if len(v) != 2 or not all(isinstance(x, kind) for x in v):
        raise InvalidArgumentError(f"{key} must be a list of two {kind.__name__}s, got {shown(v)}")
    return list(v)


def _small(v: Any, top: int, name: str) -> int:
    """``v`` if it is an int (not a bool; numpy's are not ints here) in ``[0, top)``."""
    if type(v) is int and 0 <= v < top:  # the usual case, first
        return v
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < top:
        raise InvalidArgumentError(f"{name} must be an int in [0, {top}), got {shown(v)}")
    return v


def _type_index(name: Any) -> int:
    if type(name) is str and name in _TIX:  # the usual case, first
        return _TIX[name]
    if name not in TYPES:
        raise InvalidArgumentError(f"unknown piece type {shown(name)} (types: {', '.join(TYPES)})")
    return TYPES.index(name)


# ------------------------------------------------------------------------------------------
# Determinization
# ------------------------------------------------------------------------------------------


#: oriented candidates (type, up) per seen (up face, down face) of an unidentified piece
def _candidates(up: str, down: str) -> list[tuple[int, int]]:
    out = []
    for code, (t, u) in ORIENTED.items():
        if (up == "?" or code[0] == up) and (down == "?" or code[1] == down):
            out.append((_TIX[t], u))
    return out


def _as_random(rng: RandomSource) -> random.Random:
    """A ``random.Random`` drawing from ``rng`` (already checked by ``check_rng``)."""
    if rng is None:
        return random.Random()
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(0, 2**63)))
    return random.Random(rng)


class Determinizer(_Determinizer):
    """Uniform sampler over the worlds consistent with ``player``'s view of ``state``.

    Unknown: the types (and orientations) of the opponent's board pieces that ``player`` has
    not identified, and the composition of the opponent's reserve. A world assigns each
    unidentified piece an oriented type matching the faces seen, from the pool of the
    opponent's pieces not otherwise accounted for; the reserve gets the rest. Counting the
    completions of each partial assignment (a table over at most 720 pool states) makes every
    world equally likely. Deductions from the history (e.g. which pieces an exchange returned
    to the opponent's reserve) are not used: the worlds are those consistent with the
    current position's view. In a set-up position with pieces out of the game, the hidden
    pieces are taken to be exactly those in play (which ones are out is public there).
    """

    def __init__(self, state: AlbeaPlateauState, player: int) -> None:
        self._state = state.clone()
        super().__init__(self._state, player)
        opp = 1 - self.player
        pool = dict(COUNT)
        for t, n in state.prisoners(self.player).items():
            pool[t] -= n
        hidden = dict(state.reserve(opp))  # the true types of what is hidden, for set-ups
        self._slots: list[tuple[int, int, list[tuple[int, int]]]] = []
        for sq, st in enumerate(state._board()):
            for lv, pc in enumerate(st):
                if pc[0] != opp:
                    continue
                up, down, known = _seen(pc)
                t = TYPES[pc[1]]
                if known:
                    pool[t] -= 1
                else:
                    hidden[t] = hidden.get(t, 0) + 1
                    self._slots.append((sq, lv, _candidates(up, down)))
        if sum(hidden.values()) < sum(pool.values()):
            # a set-up position with pieces out of the game: which ones is public knowledge
            # there, so the pool is exactly the hidden pieces
            pool = {t: hidden.get(t, 0) for t in TYPES}
        self._pool = tuple(pool[t] for t in TYPES)
        if min(self._pool) < 0 or sum(self._pool) != len(self._slots) + sum(
            state.reserve(opp).values()
        ):
            raise InvalidArgumentError("the position's piece counts are inconsistent")
        self._memo: dict[tuple[int, tuple[int, ...]], int] = {}
        #: number of consistent worlds
        self.worlds = self._count(0, self._pool)

    def _count(self, i: int, pool: tuple[int, ...]) -> int:
        if i == len(self._slots):
            return 1
        key = (i, pool)
        got = self._memo.get(key)
        if got is None:
            got = 0
            for t, _ in self._slots[i][2]:
                if pool[t]:
                    rest = (*pool[:t], pool[t] - 1, *pool[t + 1 :])
                    got += self._count(i + 1, rest)
            self._memo[key] = got
        return got

    def _sample(self, rng: RandomSource) -> AlbeaPlateauState:
        """One world, drawn uniformly with ``rng`` (checked by ``sample``), as a state with
        ``is_determinization`` set and no history."""
        r = _as_random(rng)
        pool = self._pool
        chosen = []
        for i, (sq, lv, cands) in enumerate(self._slots):
            x = r.randrange(self._count(i, pool))
            for t, up in cands:
                if not pool[t]:
                    continue
                rest = (*pool[:t], pool[t] - 1, *pool[t + 1 :])
                w = self._count(i + 1, rest)
                if x < w:
                    chosen.append((sq, lv, t, up))
                    pool = rest
                    break
                x -= w
        out: AlbeaPlateauState = self._state._resample(chosen, 1 - self.player, list(pool))
        return out


def _playouts(variant: str, n: int, seed: int, ply_cap: int, max_plies: int = 0) -> dict[str, Any]:
    # the game option max_plies (a draw after that many plies) applies to every game
    return dict(_a.random_playouts(n, seed, ply_cap, max_plies))


def _batch(variant: str, n: int, seed: int, ply_cap: int, max_plies: int = 0) -> Any:
    max_plies = check_int(max_plies, "max_plies", 0, 2**30)
    return _ab.AlbeaBatch(n, seed, ply_cap, max_plies)


def _check_option_values(variant: str, options: dict[str, Any]) -> dict[str, Any]:
    return {"max_plies": check_int(options["max_plies"], "max_plies", 0, _a.MAX_PLY)}


def _from_setup(variant: str, setup: Mapping[str, Any], max_plies: int = 0) -> GameState:
    if not isinstance(setup, Mapping):
        raise InvalidPositionError(f"a set-up position is an object, got {type(setup).__name__}")
    data = dict(setup)
    given = data.get("options")  # (as position data reads them: null, {} or a null or 0
    # max_plies mean no cap; a set-up that gives them is played with the record's or call's)
    mp = given.get("max_plies") if isinstance(given, dict) else None
    if given is not None and (
        not isinstance(given, dict)
        or not set(given) <= {"max_plies"}
        or (mp is not None and type(mp) is not int)
        or (mp or 0) != max_plies
    ):
        raise InvalidPositionError(
            f"the set-up's options {shown(given)} are not the game's "
            f"{shown({'max_plies': max_plies})}: a set-up is played with the options of its "
            "record or call"
        )
    if data.get("history", []) != []:
        raise InvalidPositionError(
            "a set-up position has no history: the actions after it are the record's"
        )
    data["options"] = {"max_plies": max_plies or None}
    return AlbeaPlateauState.from_position_dict(data)
