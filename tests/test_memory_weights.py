"""Which retrieval weights a game's memory searches with (issue 26): the defaults the latency eval
measures, unless `[memory] link_phrases` asks for the question's phrases to be embedded too."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.memory.config import MemoryConfigError, load_memory_settings
from agents.memory.retrieval import DEFAULT_WEIGHTS, PHRASE_WEIGHTS


def _config(tmp_path: Path, body: str) -> dict[str, str]:
    path = tmp_path / "storytable.toml"
    path.write_text(body)
    return {"STORYTABLE_CONFIG": str(path)}


def test_link_phrases_is_off_by_default_and_read_from_the_config(tmp_path: Path) -> None:
    assert load_memory_settings(env={}).link_phrases is False
    assert load_memory_settings(env=_config(tmp_path, "[memory]\nlink_phrases = true\n")).link_phrases is True


def test_a_bad_link_phrases_value_is_one_line_naming_the_key(tmp_path: Path) -> None:
    with pytest.raises(MemoryConfigError) as err:
        load_memory_settings(env=_config(tmp_path, "[memory]\nlink_phrases = \"yes\"\n"))
    assert "link_phrases" in str(err.value) and "\n" not in str(err.value)


def test_the_memory_searches_with_the_defaults_or_with_phrases_when_asked(tmp_path: Path) -> None:
    from agents.memory import FactIndex
    from agents.memory.config import MemorySettings
    from agents.memory.embeddings import WordLlamaEmbeddingFunction
    from agents.memory.game import GameMemory

    index = FactIndex(tmp_path / "g", "weights-game", embedding_function=WordLlamaEmbeddingFunction())
    assert GameMemory(index, "weights-game").weights is DEFAULT_WEIGHTS and not DEFAULT_WEIGHTS.phrases
    asked = GameMemory(index, "weights-game", settings=MemorySettings(link_phrases=True)).weights
    assert asked is PHRASE_WEIGHTS and asked.phrases and asked.about > 0  # the weights fitted with linking on
