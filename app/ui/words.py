"""The book's words for actions, their fields and pending decisions (no Streamlit here).

Why one table: the page's buttons and forms and the terminal's menus and prompts must call
things by the same names, the rulebook's, never the engine's field names (`new_role`).
"""
from __future__ import annotations

LABELS = {
    "propose_tenet": "Propose a Tenet", "pass_prep": "Pass", "bid": "Bid for the scene",
    "establish_location": "Establish the location", "set_time": "Set the time",
    "frame_mini_scene": "Frame a mini scene", "fade_mini_scene": "Fade the mini scene",
    "create_component": "Create a component", "introduce_component": "Introduce a component",
    "exit_component": "Take a component out", "declare_absent": "Declare a component absent",
    "narrate_event": "Narrate an Event", "buy_fact": "Buy a Fact", "add_trait": "Add a Trait",
    "remove_trait": "Remove a Trait", "restore_trait": "Restore a Trait",
    "reduce_importance": "Reduce Importance", "restore_importance": "Restore Importance",
    "return_component": "Bring back an eliminated component", "dialog": "Start Dialog",
    "answer_dialog": "Answer the Dialog", "speak": "Speak (free colour)", "end_turn": "End my turn",
    "end_scene": "End the scene", "take_over": "Take over a component", "call_fine": "Call for a Fine",
    "fine_vote": "Vote on the Fine", "pass": "Pass (let it stand)", "interrupt": "Interrupt",
    "obstacle": "Add an obstacle (start a Complication)", "challenge": "Challenge",
    "concede_challenge": "Concede", "contest_challenge": "Contest (bid for it)",
    "withdraw_challenge": "Withdraw the challenge", "dispute_fact": "Dispute that the Fact applies",
    "fact_vote": "Vote: does the Fact apply?", "challenge_bid": "Bid in the Challenge",
    "challenge_pass": "Pass in the bidding", "draw_trait": "Draw on a Trait", "buy_die": "Buy dice",
    "call_resolution": "Call for resolution", "answer_resolution": "Agree to roll?",
    "cancel_bonus": "Cancel a loser's bonus coins", "end_narration": "End my narration",
    # Death of the Vele's out-of-turn and mid-act moves
    "justify": "Justify the claim with fiction", "counter_struggle": "Counter-struggle (your thing strikes back)",
    "make_component": "Make the thing you need", "claim_spotlight": "Claim a spotlight achieved",
    "table_talk": "Talk out of character",
    "tell_effect": "Tell the hidden roll's effect (in the story)",
    # the Judgment add-on (UA-JUDGE-*)
    "invoke_judgment": "Invoke Judgment (the Judge decides)", "judge_ruling": "Rule as the Judge",
    "overrule_vote": "Vote: overrule the Judge?",
    # Open Scene Framing (UA-OPEN-*)
    "frame_scene": "Frame a new scene", "switch_scene": "Switch to another scene",
    "close_scene": "Close a scene (Fade to Black)", "fork_scene": "Split off a mirror scene (Alternate Reality)",
    "declare_pool": "Declare my Pool's side", "allocate_successes": "Allocate the Successes",
    "extend_complication": "Extend: roll it in stages", "decline_extend": "Roll it whole",
    "order_nested": "Choose which Complication resolves first",
}
BOOL_WORDS = {"fine": ("Fine them", "No fine"), "applies": ("It applies", "It does not apply"),
              "agree": ("Agree: roll", "Not yet"), "accept": ("Accept", "Refuse (a Complication)"),
              "overrule": ("Overrule the Judge", "Let the ruling hold")}
FIELD_LABELS = {
    ("propose_tenet", "text"): "the Tenet", ("narrate_event", "text"): "the Event", ("buy_fact", "text"): "the Fact",
    ("add_trait", "text"): "the Trait", ("obstacle", "text"): "the obstacle", ("interrupt", "text"): "what you say",
    ("establish_location", "location"): "an existing location", ("establish_location", "new_role"): "or a new place",
    ("establish_location", "return_to_scene"): "or cut back to scene", ("create_component", "role"): "Role",
    ("draw_trait", "pool"): "into Pool", ("buy_die", "pool"): "Pool", ("dialog", "line"): "the line",
    ("speak", "line"): "the line", ("end_scene", "fade"): "fade to black (1 coin)",
    ("challenge", "alternative"): "what should happen instead", ("challenge", "fact"): "the Fact it contradicts",
    ("challenge", "withdraw"): "it should not happen at all", ("bid", "amount"): "coins (secret)",
    ("justify", "text"): "the claim, told again", ("counter_struggle", "thing"): "your thing (its id, e.g. c7)",
    ("make_component", "paid"): "story dice paid: one of each trait's size", ("claim_spotlight", "maker"): "whose card",
    ("make_component", "supported_by"): "your capability and technique traits (for a second one this act)",
    ("table_talk", "to"): "to whom (players neither narrating nor acting)",
    ("tell_effect", "text"): "how it went, in words (not the number: they must not learn whether they failed)",
    ("declare_pool", "side"): "side (C: the Complication, T: the Targets)", ("declare_pool", "text"): "why",
    ("extend_complication", "stages"): "stages (sub-pools per side)", ("extend_complication", "text"): "why",
    ("order_nested", "first"): "resolves first (new: the nested one; interrupted: the one waiting)",
}

PENDING_WORDS = {
    "prep_turn": "preparation turn", "bid": "secret scene bid", "turn": "turn", "reaction": "reaction window",
    "negotiation": "answer to a Challenge", "fact_vote": "vote on the Fact", "challenge_bid": "Challenge bid",
    "fine_vote": "vote on the Fine", "consent": "consent to roll", "roll": "roll of the dice",
    "narration": "narration with bonus coins", "dialog_answer": "answer to Dialog",
    "judgment": "Judge's ruling", "overrule_vote": "vote on overruling the Judge",
    "frame_turn": "framing of the next scene",
    "declare_side": "declaration of a Pool's side", "allocate": "allocation of the Successes (Split Allocation)",
    "extend": "offer to extend the Complication",
}

# the fields' words where no action-specific label says more (FIELD_LABELS wins)
FIELD_WORDS = {
    "text": "the words", "role": "its Role (what it is, e.g. 'old ferryman')", "kind": "kind",
    "proper_name": "a Proper Name (1 coin more; Enter for none)", "introduce": "bring it into the scene now",
    "component": "which component", "performer": "who does it", "receiver": "to whom or what",
    "location": "the location", "speaker": "who speaks", "listener": "to whom", "about": "about which component",
    "other": "the other character", "sub_of": "part of which component", "trait": "which Trait",
    "negates": "the Master Trait it negates", "pool": "which Pool", "dice": "how many dice",
    "count": "how many", "coins": "coins", "amount": "coins", "reason": "why", "accused": "whom",
    "fact": "which Fact", "replaces": "replacing which Tenet", "return_to_scene": "cut back to scene",
    "option": "which option", "line": "the line", "alternative": "what should happen instead",
    "remove": "take a die away instead of adding one", "fade": "fade to black (1 coin)",
    "levels": "how many levels", "corollary": "its Corollary (the Trait the other component gets in return)", "times": "how many times",
    "accept": "accept", "agree": "agree to roll", "alternative_cost": "what the alternative costs",
    "new_option_cost": "what the new option costs", "applies": "the Fact applies", "fine": "fine them",
    "faces": "the faces", "when": "when", "new_option": "a new option", "withdraw": "it should not happen at all",
}


def field_label(action: str, field: str) -> str:
    """What a form or a prompt calls one field of one action."""
    return FIELD_LABELS.get((action, field)) or FIELD_WORDS.get(field) or field.replace("_", " ")


def action_label(action: str) -> str:
    return LABELS.get(action, action.replace("_", " "))
