"""eval/memory/fit.py: weights learned by a listwise softmax loss, ranked exactly as hybrid_search ranks."""
from __future__ import annotations

import numpy as np
import pytest

from eval.memory.fit import CHANNELS, ListwiseLoss, Question, fit_listwise, game_recall, recall, weights_from


def _question(features: list[list[float]], relevant: list[int], wording: list[int] | None = None) -> Question:
    n = len(features)
    return Question(np.array(features, dtype=float), np.arange(n), np.array(wording or list(range(n))),
                    [[i] for i in relevant])


def test_recall_counts_one_result_per_wording_like_hybrid_search():
    # candidates 0 and 1 say the same words: the second copy takes no place in the top 2
    q = _question([[3.0], [2.9], [1.0], [0.5]], relevant=[2], wording=[0, 0, 1, 2])
    assert recall(q, np.array([1.0]), k=2) == 1.0
    assert recall(_question([[3.0], [2.9], [1.0], [0.5]], relevant=[2]), np.array([1.0]), k=2) == 0.0


def test_ties_go_to_the_later_fact():
    q = _question([[1.0], [1.0]], relevant=[1])  # seqs 0 and 1
    assert recall(q, np.array([1.0]), k=1) == 1.0


def _noisy_games(seed: int = 0) -> dict[str, list[Question]]:
    """Three games whose answers stand out on the second channel only; the first is loud noise."""
    rng = np.random.default_rng(seed)
    games = {}
    for g in range(3):
        qs = []
        for _ in range(20):
            noise = rng.random((30, 2))
            noise[:, 0] *= 3  # the noisy channel is loud and tells nothing
            answer = int(rng.integers(30))
            noise[answer, 1] += 1.0
            qs.append(_question(noise.tolist(), [answer]))
        games[str(g)] = qs
    return games


def test_listwise_fit_finds_the_channel_that_separates_answers_from_noise():
    games = _noisy_games()
    keys = ["noisy", "useful"]
    start = np.array([0.1, 0.1])
    before = np.mean([game_recall(qs, start, k=1) for qs in games.values()])
    w = fit_listwise(games, keys)
    after = np.mean([game_recall(qs, w, k=1) for qs in games.values()])
    assert after > before + 0.3 and after == pytest.approx(1.0)
    assert w[1] > 10 * w[0] >= 0


def test_listwise_gradient_matches_finite_differences():
    games = _noisy_games(seed=1)
    games["0"][0].groups.append([3, 4])  # an item two Facts answer
    loss = ListwiseLoss(games)
    w = np.array([0.3, 0.2])
    _, grad = loss(w)
    for j in range(2):
        step = np.zeros(2)
        step[j] = 1e-6
        numeric = (loss(w + step)[0] - loss(w - step)[0]) / 2e-6
        assert numeric == pytest.approx(grad[j], rel=1e-4)
    assert loss(np.array([0.0, 1.0]))[0] < loss(np.array([1.0, 0.0]))[0]  # the useful channel lowers it


def test_fit_keeps_the_e5_weight_out_and_is_deterministic():
    keys = sorted(CHANNELS)
    games = {"g": [_question(np.eye(len(keys))[[0, 4, 14]].tolist(), [1])]}  # the answer is strongest on "dense"
    w = fit_listwise(games, keys, steps=50)
    assert w[keys.index("second")] == 0 and np.all(w >= 0)
    assert w[keys.index("dense")] > w[keys.index("about")]
    assert np.array_equal(w, fit_listwise(games, keys, steps=50))
    fitted = weights_from(np.full(len(keys), 0.25), keys)
    assert fitted.dense == 0.25 and fitted.identity == 0.25 and fitted.second == pytest.approx(0.15)  # e5's stays
