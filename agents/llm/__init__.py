"""Model-facing machinery for LLM seats: settings, structured asks, retries.

Generic over any pydantic action schema; knows nothing of the rules engine.
"""

from .config import ConfigError, LLMSettings, SeatSettings, is_configured, load_settings
from .decider import Attempt, StructuredDecider, extract_json_object, make_chat_model, make_decider
from .retry import Outcome, decide_with_retries

__all__ = [
    "Attempt",
    "ConfigError",
    "LLMSettings",
    "Outcome",
    "SeatSettings",
    "StructuredDecider",
    "decide_with_retries",
    "extract_json_object",
    "is_configured",
    "load_settings",
    "make_chat_model",
    "make_decider",
]
