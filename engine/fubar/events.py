"""What FUBAR's `apply` reports: one line of what happened, in the words given."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    model_config = ConfigDict(frozen=True)

    seq: int
    kind: str
    player: str = ""
    text: str = ""
    cost: int = 0
    data: dict[str, Any] = Field(default_factory=dict)

    def line(self) -> str:
        price = f" [{self.cost} Resolve]" if self.cost else ""
        who = f"{self.player}: " if self.player else ""
        return f"{who}{self.text}{price}"
