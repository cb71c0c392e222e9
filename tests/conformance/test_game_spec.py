"""The game spec of every game and variant: the typed errors for what names a game (unknown
game, variant or option, a bad option value) at every entry point and on the command line, and
one :class:`plateau.GameSpec`, resolved once, reaching every layer with its options."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import plateau
from plateau import arena
from plateau.cli import main
from plateau.openings import OpeningSource, make_openings
from plateau.record import from_record
from support import has_batch

#: a value no option of any game takes (not an int, a name, a path or a board)
BAD_VALUE: list[Any] = []

#: the entry points that make games: each called as ``f(game, variant, **options)``
MAKERS: dict[str, Callable[..., object]] = {
    "new_game": plateau.new_game,
    "StateBatch": lambda g, v=None, **o: plateau.StateBatch(g, v, n=2, **o),
    "random_playouts": lambda g, v=None, **o: plateau.random_playouts(g, v, n=2, **o),
    "Tournament": plateau.Tournament,
    "resolve": plateau.resolve,
}


def makers_of(game: str) -> list[str]:
    return [m for m in MAKERS if m != "StateBatch" or has_batch(game)]


def other_spec(game: str, variant: str) -> plateau.GameSpec:
    """The spec of ``variant`` with the first listed other value of an option (the default
    spec if the game lists none)."""
    info = plateau.game_info(game)
    for name, values in info.option_values.items():
        for value in values:
            return plateau.resolve(game, variant, **{name: value})
    return plateau.resolve(game, variant)


@pytest.mark.parametrize("maker", list(MAKERS))
def test_an_unknown_game_is_an_unknown_game_error(maker: str) -> None:
    with pytest.raises(plateau.UnknownGameError, match=r"'no-such-game'.*known games: .*"):
        MAKERS[maker]("no-such-game")
    for game in plateau.games():
        with pytest.raises(plateau.UnknownGameError, match=game):
            MAKERS[maker]("no-such-game")


def test_each_spec_error_is_its_own_value_error() -> None:
    kinds = [
        plateau.UnknownGameError,
        plateau.UnknownVariantError,
        plateau.UnknownOptionError,
        plateau.InvalidOptionError,
    ]
    for kind in kinds:
        assert issubclass(kind, plateau.GameSpecError) and issubclass(kind, ValueError)
        assert [k for k in kinds if issubclass(kind, k)] == [kind]


def test_every_library_error_is_a_plateau_error() -> None:
    exported = [getattr(plateau, name) for name in plateau.__all__ if name.endswith("Error")]
    assert plateau.PlateauError in exported and plateau.InvalidArgumentError in exported
    errors = [v for v in vars(plateau.errors).values() if isinstance(v, type)]
    errors = [v for v in errors if issubclass(v, Exception)]
    assert set(exported) <= set(errors) and len(errors) >= 14
    for kind in errors:
        assert issubclass(kind, plateau.PlateauError) and issubclass(kind, ValueError), kind


@pytest.mark.parametrize("game", plateau.games())
def test_bad_arguments_are_invalid_argument_errors_in_python_and_in_the_core(game: str) -> None:
    s = plateau.new_game(game)
    before = s.hash
    calls = [
        lambda: s.perft(-1),  # checked by the compiled core
        lambda: s.perft(True),
        lambda: s.observation_tensor(s.num_players),  # by the Python layer
        lambda: plateau.random_playouts(game, n=-1),
        lambda: s.view_for(0, seed=-1),
    ]
    if plateau.game_info(game).batch is not None:
        calls.append(lambda: plateau.StateBatch(game, n=0))
    for call in calls:
        with pytest.raises(plateau.InvalidArgumentError):
            call()
    assert s.hash == before


@pytest.mark.parametrize("game", plateau.games())
def test_unknown_variants_options_and_bad_values_are_typed(game: str) -> None:
    info = plateau.game_info(game)
    for maker in makers_of(game):
        make = MAKERS[maker]
        with pytest.raises(plateau.UnknownVariantError) as e:
            make(game, "no-such-variant")
        assert all(v in str(e.value) for v in info.variants), (maker, str(e.value))
        with pytest.raises(plateau.UnknownOptionError) as e:
            make(game, None, no_such_option=1)
        assert "'no_such_option'" in str(e.value), (maker, str(e.value))
        assert all(name in str(e.value) for name in info.options), (maker, str(e.value))
        for name in info.options:
            with pytest.raises(plateau.InvalidOptionError):
                make(game, None, **{name: BAD_VALUE})


@pytest.mark.parametrize("game", plateau.games())
def test_the_command_line_refuses_a_bad_spec_in_one_line(
    game: str, capsys: pytest.CaptureFixture[str]
) -> None:
    info = plateau.game_info(game)
    bad = [
        ["--game", "no-such-game"],
        ["--game", game, "--variant", "no-such-variant"],
        ["--game", game, "--option", "no_such_option=1"],
        ["--game", game, "--option", "no_such_option"],  # no '='
        *(["--game", game, "--option", f"{name}=[]"] for name in info.options),
    ]
    for args in bad:
        for command in (["perft", *args, "1"], ["playouts", *args, "--games", "1"]):
            assert main(command) == 2, command
            _out, err = capsys.readouterr()
            assert err.startswith("plateau: error: ") and err.count("\n") == 1, (command, err)


def test_resolve_fills_in_the_defaults(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    info = plateau.game_info(game)
    spec = plateau.resolve(game, variant)
    assert (spec.game, spec.variant, spec.options) == (game, variant, info.options)
    assert plateau.resolve(game).variant == info.default_variant
    state = spec.new_game()
    assert (state.game, state.variant, state.options) == (game, variant, spec.options)
    assert plateau.GameSpec(game, variant, {}) == spec


def test_new_game_by_name_makes_fresh_games_of_the_current_entry(
    game_variant: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``new_game(name)`` keeps the checked spec of a name alone: each call is still a new,
    independent game, and a name registered again (here: an entry with another default
    variant) is followed."""
    game, variant = game_variant
    info = plateau.game_info(game)
    first, second = plateau.new_game(game, variant), plateau.new_game(game, variant)
    assert first is not second and first.hash == second.hash
    first.apply(first.legal_actions()[-1])
    assert second.ply == 0 and second.hash == plateau.new_game(game, variant).hash
    assert plateau.new_game(game).variant == info.default_variant
    others = [v for v in info.variants if v != info.default_variant]
    if others:
        from plateau import registry

        monkeypatch.setitem(registry._GAMES, game, replace(info, default_variant=others[0]))
        assert plateau.new_game(game).variant == others[0]
        monkeypatch.undo()
        assert plateau.new_game(game).variant == info.default_variant


def test_a_spec_is_given_alone(game_variant: tuple[str, str]) -> None:
    game, variant = game_variant
    spec = plateau.resolve(game, variant)
    with pytest.raises(ValueError, match="alone"):
        plateau.new_game(spec, variant)
    with pytest.raises(ValueError, match="alone"):
        plateau.random_playouts(spec, None, n=1, **{"no_such_option": 1})


def test_a_spec_reaches_every_layer(game_variant: tuple[str, str], tmp_path: Path) -> None:
    """The options of a spec (another value than the default where the game lists one) reach
    states, batches, playouts, tournaments, records, openings and the arena unchanged."""
    game, variant = game_variant
    spec = other_spec(game, variant)
    options = dict(spec.options)
    state = plateau.new_game(spec)
    assert (state.game, state.variant, state.options) == (game, variant, options)
    assert plateau.from_json(state.to_json()).options == options
    if has_batch(game):
        batch = plateau.StateBatch(spec, n=2)
        assert (batch.spec, batch.options) == (spec, options)
    same = plateau.random_playouts(game, variant, n=3, seed=5, **options)
    assert plateau.random_playouts(spec, n=3, seed=5) == same
    assert plateau.Tournament(spec).spec == spec
    openings = make_openings(spec, None, 1, 2, seed=1)
    assert openings[0]["options"] == options
    path = tmp_path / "openings.jsonl"
    path.write_text(json.dumps(openings[0]) + "\n")
    players = state.num_players
    for source in (None, OpeningSource(path=path)):
        result = arena.run(
            game, variant, ["random"] * players, games=1, ply_cap=6, options=options,
            openings=source,
        )  # fmt: skip
        assert result.options == options
        (game_result,) = result.results
        assert game_result.options == options and game_result.record["options"] == options
        assert from_record(game_result.record).options == options
        line = arena.GameResult.from_line(game_result.to_line())
        assert line.options == options


def test_openings_of_other_options_are_refused(tmp_path: Path) -> None:
    for game in plateau.games():
        spec = other_spec(game, plateau.game_info(game).default_variant)
        if spec == plateau.resolve(game):
            continue
        path = tmp_path / f"{game}.jsonl"
        path.write_text(plateau.new_game(game).to_json() + "\n")
        with pytest.raises(plateau.InvalidRecordError, match="options"):
            OpeningSource(path=path).book(spec, None, 0)


def test_arena_results_name_their_options(
    game_variant: tuple[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``plateau arena --option``: every results line names the options, and its record
    replays with them (``plateau show``)."""
    game, variant = game_variant
    spec = other_spec(game, variant)
    players = spec.new_game().num_players
    out = tmp_path / "arena.jsonl"
    flags = [f"--option={k}={json.dumps(v) if not isinstance(v, str) else v}"
             for k, v in spec.options.items()]  # fmt: skip
    argv = ["arena", "--game", game, "--variant", variant, *flags, "--bots",
            ",".join(["random"] * players), "--games", "2", "--jobs", "1", "--ply-cap", "6",
            "--no-progress", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    capsys.readouterr()
    results = arena.read_results(out)
    assert [r.options for r in results] == [dict(spec.options)] * 2
    assert arena.report(out).options == dict(spec.options)
    for r in results:
        assert from_record(r.record).options == spec.options
        assert main(["show", "--record", str(out), "--game-index", str(r.index)]) == 0
        assert f"{game} {variant}" in capsys.readouterr().out


def test_every_position_of_a_game_sets_up_the_same_game(
    game_variant: tuple[str, str],
) -> None:
    """Every game with set-up positions: along random games, each position read back from its
    own position dict is the same game (hash, player to act, legal actions, result and
    returns), and plays on the same (Empire Plateau read a position in the middle of a turn
    whose conquest left fewer Empires than its count of empty turns as a draw with no legal
    action)."""
    game, variant = game_variant
    info = plateau.game_info(game)
    if info.from_setup is None or not hasattr(plateau.new_game(game, variant), "position_dict"):
        pytest.skip(f"{game} has no set-up positions")
    for seed in range(3):
        rng = random.Random(f"setup/{game}/{variant}/{seed}")
        state = plateau.new_game(game, variant)
        while state.ply < 300:
            back = info.from_setup(variant, state.position_dict())  # type: ignore[attr-defined]
            where = f"{game}/{variant} seed {seed} ply {state.ply}"
            assert back.hash == state.hash, where
            assert back.current_player == state.current_player, where
            assert back.is_terminal() == state.is_terminal(), where
            assert back.returns() == state.returns(), where
            legal = state.legal_actions().tolist()
            assert back.legal_actions().tolist() == legal, where
            if not legal:
                break
            action = legal[rng.randrange(len(legal))]
            back.apply(action)
            state.apply(action)
            assert back.hash == state.hash, where


def test_a_bad_set_up_position_is_an_invalid_position_error(
    game_variant: tuple[str, str],
) -> None:
    """Every game with set-up positions: its own position dict sets up the same position, and
    a malformed one (not a dict, an unknown field, any field of the wrong type) is an
    InvalidPositionError, which a record turns into an InvalidRecordError."""
    game, variant = game_variant
    info = plateau.game_info(game)
    start = plateau.new_game(game, variant)
    position_dict = getattr(start, "position_dict", None)
    if info.from_setup is None or position_dict is None:
        pytest.skip(f"{game} has no set-up positions")
    good = position_dict()
    assert info.from_setup(variant, good).hash == start.hash
    assert issubclass(plateau.InvalidPositionError, ValueError)
    bad: list[object] = [[], "text", None, {**good, "no such field": 1}]
    bad += [{**good, key: object()} for key in good if key != "options"]
    for setup in bad:
        with pytest.raises(plateau.InvalidPositionError):
            info.from_setup(variant, setup)
        record = {**json.loads(start.to_json()), "setup": setup}
        with pytest.raises(plateau.InvalidRecordError, match="set-up"):
            from_record(record)
