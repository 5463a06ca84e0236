"""FUBAR's table options: every book option and table option of the digest's section 7, all off
by default (F-9, F-12, F-14, F-18, F-20, F-21, F-23, F-24, F-26, F-AMB-2, F-AMB-3)."""
from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class FubarOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def __deepcopy__(self, memo: dict | None = None) -> "FubarOptions":  # noqa: D105 - immutable: shared
        return self

    genre_reward: bool = Field(False, description="+1 Resolve for genre-typical play (F-8, L106)")
    doom: bool = Field(False, description="Doom counts up from 0 instead of Resolve down (F-9, L148)")
    concept_option: bool = Field(False, description="+3 Concept abilities instead of a new Trademark (F-12)")
    level_option: bool = Field(False, description="levels raise the Resolve cap by 1 (F-12)")
    yes_and_two: bool = Field(False, description="a Yes-and deals 2 to the opposition instead of its 'and' (F-14)")
    scale: bool = Field(False, description="scale differences shift the result (F-18, L521)")
    weapons_armour: bool = Field(False, description="weapon and armour ratings, soak and shields (F-20, F-21)")
    armour_piercing: bool = Field(False, description="a combat Yes-and may pierce armour (F-21)")
    super_descriptors: bool = Field(False, description="a 'super' Descriptor gives 2D (F-23)")
    broad_power_cost: bool = Field(False, description="a broad power costs 1 Resolve cap (F-23)")
    unreliable_powers: bool = Field(False, description="a No-and disables the power (F-23)")
    magic_points: bool = Field(False, description="3 chips per power, 1 per use (F-23)")
    buckets: bool = Field(False, description="the d10 'Buckets of Dice' appendix (F-24)")
    buckets_extra_and: bool = Field(False, description="an extra 'and' per extra Buckets success (F-24)")
    resolve_variant: Literal["single", "split", "replace", "replace_slots"] = Field(
        "single", description="the appendix's Resolve alternatives (F-26): split Life/FU; replace with FU and "
                              "Consequences counted per type; or Consequence slots 2/1/1")
    spend_at_zero: bool = Field(False, description="voluntary Resolve spending allowed at 0 (F-AMB-2)")
    milestone_stacking: bool = Field(False, description="a failed milestone costs -1 on top of the high-stakes -1 "
                                                        "(F-AMB-3)")
