"""Paganini's options: every book option, table option and standing GM ruling of the digest's
section 7, all off by default, so the default game is the book's core rule or the digest's reading."""
from __future__ import annotations

from typing import Literal, Optional

from pydantic import BaseModel, ConfigDict, Field


class PaganiniOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    scale: bool = Field(False, description="scale rules in use (P-8, @10496); off: every scale counts as 0")
    initiative_attribute: Optional[Literal["Quickness", "Focus"]] = Field(
        None, description="fix Quickness or Focus for initiative for the campaign (P-13); none: the GM picks "
                          "each round")
    critical_hits_only: bool = Field(False, description="a hit only on a Critical Success (P-14, @17953)")
    reroll_ties: bool = Field(False, description="re-roll every tie, attacks included (P-AMB-4)")
    ranged_margin: bool = Field(False, description="ranged damage gets a die per tier above Marginal Success "
                                                   "(P-AMB-6)")
    exempt_damage_from_wounds: bool = Field(False, description="the wound penalty spares damage rolls (P-AMB-8)")
    death_past_25: bool = Field(False, description="more than 25 boxes: dead or destroyed (P-AMB-1)")
    waive_npc_validation: bool = Field(False, description="GM-built NPCs skip creation's budgets (P-AMB-2)")
    half_strength_round_away: bool = Field(False, description="half strength rounds away from 0 (P-AMB-12)")
    cover_cap: bool = Field(False, description="hard cover over 50% counts at most +4LD (P-AMB-13)")
    quality_on_damage: bool = Field(False, description="weapon Quality is added to damage rolls too (P-AMB-14)")
    vulnerable_on_defender: bool = Field(False, description="+1LD for a vulnerable direction on the defence roll "
                                                            "(P-AMB-16)")
    one_designated_per_adventure: bool = Field(False, description="one designated AP for a whole time-consuming "
                                                                  "adventure, not one a day (P-AMB-15)")
    trainer_required: bool = Field(False, description="Special skills advance only with a trainer (P-11, @13371)")
    bar_intensive_good: bool = Field(False, description="no intensive study of skills rated Good or higher "
                                                        "(P-11, @13865)")
    dazed: bool = Field(False, description="a Marginal Success on the Fitness roll leaves the character dazed: "
                                           "+1LD on the next initiative (P-18, @19948)")
    extra_attributes: list[str] = Field(default_factory=list, description="attributes a setting adds, e.g. Magic "
                                                                           "(P-9, @6100)")
    free_attribute_levels: int = Field(3, ge=0, le=12, description="a setting may change them (P-10, @24900)")
    extra_free_skill_levels: int = Field(0, ge=0, le=12, description="a setting may add free skill levels")
