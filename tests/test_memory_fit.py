"""eval/memory/fit.py: weights learned by coordinate ascent, ranked exactly as hybrid_search ranks."""
from __future__ import annotations

import numpy as np
import pytest

from eval.memory.fit import CHANNELS, Question, coordinate_ascent, flat_start, game_recall, recall, weights_from


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


def test_ascent_finds_the_channel_that_separates_answers_from_noise():
    rng = np.random.default_rng(0)
    keys = ["noisy", "useful"]
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
    start = np.array([0.1, 0.1])
    before = np.mean([game_recall(qs, start, ) for qs in games.values()])
    w, after = coordinate_ascent(games, start, keys)
    assert after > before + 0.2 and after == pytest.approx(1.0)
    assert w[1] > w[0]


def test_flat_start_and_fitted_weights_cover_every_channel():
    keys = sorted(CHANNELS)
    start = flat_start(keys)
    assert start[keys.index("second")] == 0 and set(start) == {0.0, 0.1}
    w = weights_from(np.full(len(keys), 0.25), keys)
    assert w.dense == 0.25 and w.identity == 0.25 and w.second == pytest.approx(0.15)  # e5's stays
