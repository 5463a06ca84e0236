"""What Vele's `apply` reports: one line of what happened."""
from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Event(BaseModel):
    model_config = ConfigDict(frozen=True)

    seq: int
    kind: str
    player: str = ""
    text: str = ""
    data: dict[str, Any] = Field(default_factory=dict)

    def line(self) -> str:
        return f"{self.player}: {self.text}" if self.player else self.text
