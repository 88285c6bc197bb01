"""The PettingZoo adapter: PettingZoo's own API and seed tests, seats and
rewards, for both games."""

from __future__ import annotations

import doctest
import warnings

import numpy as np
import pytest
from rl_games import RULE_OPTIONS, VARIANTS

pettingzoo = pytest.importorskip(
    "pettingzoo", reason="PettingZoo is not installed (pip install 'veletas[pettingzoo]')"
)
import veletas  # noqa: E402
import veletas.pettingzoo  # noqa: E402
from pettingzoo.test import api_test, seed_test  # noqa: E402
from veletas import DecisionState, IllegalMoveError  # noqa: E402
from veletas.games.veletas.encoding import RandomAgent, describe, observation_for, random_game  # noqa: E402
from veletas.pettingzoo import env  # noqa: E402

# api_test warns about any observation that is a dict rather than an array,
# except for PettingZoo's own board games, which it knows by name. The dict
# of "observation" and "action_mask" is what those games use too.
DICT_OBSERVATION_NOTES = {
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box or "
    "gymnasium.spaces.discrete",
}


def test_module_examples() -> None:
    result = doctest.testmod(veletas.pettingzoo, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_api_and_seed_tests(variant: str, setup_rule: str, shooters_block: bool) -> None:
    def make() -> pettingzoo.AECEnv:
        return env(variant=variant, setup_rule=setup_rule, shooters_block=shooters_block)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=1000)
        seed_test(make, num_cycles=500)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_NOTES


def test_agents_are_seats_and_rewards_come_at_the_end() -> None:
    for seed in range(6):
        game = env(variant="small")
        game.reset(seed=seed)
        assert game.agents == ["player_0", "player_1"]
        for action, agent in ((16, "player_0"), (0, "player_0"), (50, "player_1")):
            assert game.agent_selection == agent
            game.step(action)
        # After the swap the first player places as White.
        assert game.agent_selection == "player_0"
        assert game.unwrapped.state.turn == veletas.WHITE
        agent = RandomAgent(seed, 0)
        rewards = {"player_0": 0.0, "player_1": 0.0}
        for name in game.agent_iter():
            observation, reward, terminated, truncated, info = game.last()
            rewards[name] += reward
            assert not truncated
            assert info == {}
            if terminated:
                assert not observation["action_mask"].any()
                game.step(None)
                continue
            assert reward == 0
            game.step(agent(observation["action_mask"]))
        winner = game.unwrapped.state.winner
        first = 1.0 if winner == veletas.WHITE else -1.0
        assert rewards == {"player_0": first, "player_1": -first}
        assert game.agents == []


def test_observations() -> None:
    game = env(variant="medium")
    game.reset()
    for action in (20, 21, 50, 30, 31, 40, 41, 81):  # setup, then PASS in play
        game.step(action)
    state = game.unwrapped.state
    assert state.board.phase == veletas.Phase.PLAY
    assert state.stage == "target"
    for seat, name in enumerate(("player_0", "player_1")):
        observation = game.observe(name)
        assert game.observation_space(name).contains(observation)
        assert observation["observation"].dtype == np.float32
        assert observation["action_mask"].dtype == np.int8
        np.testing.assert_array_equal(observation["observation"], observation_for(state, seat))
    acting = game.agent_selection
    np.testing.assert_array_equal(game.observe(acting)["action_mask"], state.action_mask())
    other = "player_1" if acting == "player_0" else "player_0"
    assert not game.observe(other)["action_mask"].any()


def test_illegal_actions_raise_and_change_nothing() -> None:
    game = env(variant="small")
    game.reset()
    before = game.unwrapped.state.copy()
    with pytest.raises(IllegalMoveError, match="illegal action 0"):
        game.step(0)
    assert game.unwrapped.state == before
    assert game.agent_selection == "player_0"
    game.step(np.int64(16))
    assert game.unwrapped.state != before


def test_render_modes(capsys: pytest.CaptureFixture[str]) -> None:
    game = env(variant="small", render_mode="ansi")
    game.reset()
    game.step(16)
    assert game.render() == describe(game.unwrapped.state)
    human = env(variant="small", render_mode="human")
    human.reset()
    human.step(16)
    assert describe(human.unwrapped.state) in capsys.readouterr().out
    silent = env(variant="small")
    silent.reset()
    assert silent.render() is None
    with pytest.raises(ValueError, match="render_mode 'rgb_array' is not one of"):
        env(variant="small", render_mode="rgb_array")


def test_random_agent_plays_the_micro_games() -> None:
    # A RandomAgent per game, over the action masks, plays random_game(s, i).
    for variant in ("small", "standard"):
        for index in range(2):
            game = env(variant=variant)
            game.reset(seed=index)
            agent = RandomAgent(5, index)
            for _ in game.agent_iter():
                observation, _, terminated, _, _ = game.last()
                game.step(None if terminated else agent(observation["action_mask"]))
            expected = DecisionState(random_game(5, index, variant=variant))
            assert game.unwrapped.state == expected


# ----------------------------------------------------------------------
# Meridians: env(game="meridians", size=..., pie=...).

MERIDIANS_RULES = [("5-6", False), ("6-7", False), ("7-8", False), ("5-6", True)]


@pytest.mark.parametrize(("size", "pie"), MERIDIANS_RULES)
def test_meridians_api_and_seed_tests(size: str, pie: bool) -> None:
    def make() -> pettingzoo.AECEnv:
        return env(game="meridians", size=size, pie=pie)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(make(), num_cycles=1000)
        seed_test(make, num_cycles=500)
    assert {str(w.message) for w in caught} <= DICT_OBSERVATION_NOTES


def test_meridians_spaces_agents_and_rewards() -> None:
    from veletas.games.meridians.types import Color

    game = env(game="meridians", size="5-6", pie=True, render_mode="ansi")
    assert game.unwrapped.metadata["name"] == "meridians_v0"
    assert game.observation_space("player_1")["observation"].shape == (8, 10, 10)
    assert game.action_space("player_0").n == 102
    for seed in range(4):
        game.reset(seed=seed)
        # The first player places Light's and Dark's first stones, then the
        # second player swaps: it holds Light from then on.
        for action, agent in ((23, "player_0"), (77, "player_0"), (100, "player_1")):
            assert game.agent_selection == agent
            game.step(action)
        assert game.unwrapped.state.turn == Color.LIGHT
        assert game.agent_selection == "player_1"
        assert "light to act (seat 1), open" in game.render()
        agent = RandomAgent(seed, 0)
        rewards = {"player_0": 0.0, "player_1": 0.0}
        for name in game.agent_iter():
            observation, reward, terminated, _, _ = game.last()
            rewards[name] += reward
            if terminated:
                assert not observation["action_mask"].any()
                game.step(None)
                continue
            game.step(agent(observation["action_mask"]))
        light_won = game.unwrapped.state.winner == Color.LIGHT
        assert (
            rewards == {"player_0": -1.0, "player_1": 1.0}
            if light_won
            else {
                "player_0": 1.0,
                "player_1": -1.0,
            }
        )
        assert "wins" in game.render()


def test_meridians_observations_and_masks() -> None:
    from veletas.games.meridians.encoding import observation_for as meridians_observation

    game = env(game="meridians", size="6-7")
    game.reset()
    for action in (17, 0, 41, 24):  # f2 a1 f4 a3: the opening is over
        game.step(action)
    state = game.unwrapped.state
    assert state.phase == "play"
    for seat, name in enumerate(("player_0", "player_1")):
        observation = game.observe(name)
        assert game.observation_space(name).contains(observation)
        np.testing.assert_array_equal(
            observation["observation"], meridians_observation(state, seat)
        )
    np.testing.assert_array_equal(
        game.observe(game.agent_selection)["action_mask"], state.action_mask()
    )
    with pytest.raises(IllegalMoveError, match="illegal action 17"):
        game.step(17)


def test_meridians_random_agent_plays_the_playouts() -> None:
    from veletas import meridians

    games = meridians.playouts(2, size="5-6", seed=8, record=True)
    for index in range(2):
        game = env(game="meridians", size="5-6")
        game.reset()
        agent = RandomAgent(8, index)
        for _ in game.agent_iter():
            observation, _, terminated, _, _ = game.last()
            game.step(None if terminated else agent(observation["action_mask"]))
        assert game.unwrapped.state.board.fen() == games.board(index).fen()


def test_unknown_games_and_keywords_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        env(game="chess")
    with pytest.raises(TypeError, match="variant"):
        env(game="meridians", variant="small")
    with pytest.raises(veletas.InvalidRulesError, match="unknown size '8-9'"):
        env(game="meridians", size="8-9")
