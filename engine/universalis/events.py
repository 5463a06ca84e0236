"""What `apply` reports back: the words paid for and the consequences, for the transcript."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    """One line of what happened. `text` is the player's own words where he paid for words."""

    model_config = ConfigDict(frozen=True)

    seq: int
    kind: str
    player: str = ""
    text: str = ""
    cost: int = 0
    data: dict[str, Any] = Field(default_factory=dict)

    def line(self) -> str:
        price = f" [{self.cost}]" if self.cost else ""
        who = f"{self.player}: " if self.player else ""
        return f"{who}{self.text}{price}"
