"""Vele's table settings (digest §7): the book's guidelines and the digest's readings, as defaults."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class VeleOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    acts: int | None = Field(None, ge=1, le=12, description="acts in the story; None: one per player (V-58)")
    character_points: int = Field(30, ge=10, le=60, description="character dice points per act (V-10, V-AMB-1)")
    story_points: int = Field(30, ge=10, le=60, description="story dice points per act (V-10, V-AMB-1)")
    xp_purchase_rate: int = Field(1, ge=0, le=5, description="dice points per XP at the act-start purchase (V-AMB-1)")
    unlimited_bowl: bool = Field(False, description="the bowl never runs short (V-9)")
    bowl_sets: int = Field(12, ge=8, le=40, description="d4, d6, d8 and d10 in the bowl per seat; 1 d12 per seat")
    vele_off_stage: bool = Field(False, description="mechanics do not touch non-player Vele and Verminites (V-7)")
    heal_without_ability: bool = Field(False, description="any healing or repair trait heals without a "
                                                          "Heal/Repair ability (V-40, the main text's route)")
    pc_spotlights_per_story: int = Field(2, ge=0, le=12, description="PC spotlight cards a player may make "
                                                                    "in a story (V-61, V-AMB-13)")
    spotlight_cards: Literal["middle", "taken_in_turns"] = Field(
        "middle", description="where a spotlight card goes once made: the middle of the table, for whoever "
                              "narrates (L737, the newer Additional Rules), or taken in turns by the other players "
                              "(L935, the older text; logs written before Vele rules version 2 read this way)")
    zones: bool = Field(False, description="a map of zones for movement (V-44, L413-415): the narrator lays each scene's "
                                          "zones in a row; otherwise movement stays in the fiction, as the book allows")
    tone: Literal["pulpy", "gritty", "heroic", "doomed"] = "pulpy"
    tone_fallback: Literal["pulpy", "gritty"] = Field("pulpy", description="fate order for PC v PC and story v story "
                                                                        "under a heroic or doomed tone (V-30)")
    taken_out_meaning: Literal["dead", "unconscious", "too weak to act"] = "unconscious"
