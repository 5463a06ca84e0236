"""Does the heuristic's story hold together? Repetition, variety, wealth and use of others' components.

Issue 23 ("Stories that hold together"): over a seeded 10-scene, 4-seat heuristic game this
measures
- the share of narration lines that repeat a sentence *frame*. A narration line is a line of the
  transcript said by a seat (`agents.simulation.transcript_lines` without bookkeeping: rolls,
  results, turn markers are the engine's, not a seat's). Its frame is the line with the table's
  own words masked: component names and roles, Trait texts, Tenets, player names and numbers
  become placeholders, so "buys 4 dice for Cat's Pool: everything on this one moment" and "buys 2
  dice for the Complication Pool: everything on this one moment" are one frame. The engine's fixed
  wording ("calls for resolution.") counts too: a reader sees it. A line with no words of its own
  once masked ("Seren of the Marsh: Cursed wound", a Trait bought) has no sentence to repeat: it
  counts among the lines but not as a frame, and how many there are is reported ("wordless").
- distinct-2 of the narration (distinct word bigrams / all bigrams over the same lines);
- coins per seat after each scene (wealth plus stake), the book's sane range being 25-40;
- statements contradicting an earlier Fact or an outcome (the offline contradiction check, and
  eliminated components acting);
- how often a seat's own components are used by the other seats: no person sits at these
  tables, so each seat stands in for one and we count the other seats' lines that name a
  component it created. Seat Ann is reported as "the person"; all seats are averaged too.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Any

from agents.simulation import HIDDEN, simulate_game

TUNING_SEEDS = (1, 2, 3)  # the narration and spending were tuned on these
HELD_OUT_SEEDS = (11, 12, 13, 14)  # looked at only to report; seen since, so tuning may now use them
# Added 2026-11-27 BEFORE any tuning of that session (seeds 11-14 had been looked at, so were no
# longer blind): nobody has run or read these games. Score them once at the end, never tune on them.
# Not 21 or 22: tests/test_eval_story.py plays seed 21 and a memory probe game seed 22 (and the
# economy eval's seeds 0..N only in aggregate), so the blind seeds sit far from every seed in use.
BLIND_SEEDS = (1001, 1002, 1003, 1004, 1005, 1006)
FRAME_LIMIT = 0.03  # the target: no frame in more than 3% of lines
STAND_IN = "Ann"
# lines whose words are all the engine's (the seat chose the move, not the wording): "calls for
# resolution.", "keeps 4 coins of bonus as wealth.", ... They are one per Complication whatever a
# player does, so they are also reported apart: the players' own words must meet the 3% target
# on their own; these can only be varied in engine/.
ENGINE_WORDED = frozenset({"call_resolution", "resolution_declined", "end_narration", "cancel_bonus", "take_over",
                           "challenge_bid", "dialog_refused", "challenge_conceded", "fact_vote", "fine_vote"})


def narration_lines(table: Any, own_words: bool = False) -> list[tuple[str, str]]:
    """(seat, text) for every transcript line a seat said, in order; `own_words`: only lines
    that carry words the seat chose (not ENGINE_WORDED)."""
    return [(e.player, e.text) for e in table.events if e.player and e.text and e.kind not in HIDDEN
            and not (own_words and e.kind in ENGINE_WORDED)]


def _maskers(table: Any) -> list[tuple[re.Pattern[str], str]]:
    s = table.state
    words: dict[str, str] = {}
    for c in s.components.values():
        words[c.label] = "<C>"
        for t in c.traits:
            words.setdefault(t.text, "<T>")
    for t in s.tenets:
        words.setdefault(t.text, "<TENET>")
    for p in s.players:
        words[p.name] = "<P>"
    ordered = sorted((w for w in words if len(w) >= 2), key=len, reverse=True)
    out = []
    for w in ordered:
        out.append((re.compile(r"(?<!\w)" + re.escape(w) + r"(?!\w)", re.IGNORECASE), words[w]))
    return out


def frame_of(text: str, maskers: list[tuple[re.Pattern[str], str]]) -> str:
    """The line with the table's own words masked (see the module docstring)."""
    out = text
    for pat, tag in maskers:
        out = pat.sub(tag, out)
    out = re.sub(r"\d+", "<N>", out)
    out = re.sub(r"\b(?:the|a|an) <", "<", out, flags=re.IGNORECASE)
    out = re.sub(r"(<[A-Z]+>)(?:\s*(?:'s|and|,)?\s*<[A-Z]+>)+", r"\1", out)
    return re.sub(r"\s+", " ", out).strip().lower()


def distinct_2(texts: list[str]) -> float:
    grams: list[tuple[str, str]] = []
    for t in texts:
        toks = re.findall(r"[\w']+", t.lower())
        grams += list(zip(toks, toks[1:]))
    return len(set(grams)) / len(grams) if grams else 0.0


def mentioned(table: Any, text: str) -> set[str]:
    """Ids of the components a line names, by label or "the <role>"."""
    low = text.lower()
    return {c.id for c in table.state.components.values()
            if c.kind != "location" and re.search(r"(?<!\w)" + re.escape(c.label.lower()) + r"(?!\w)", low)}


def cross_use(table: Any) -> dict[str, Any]:
    """Per seat: share of the other seats' lines that name one of its components, and its share of components."""
    s = table.state
    lines = [(who, mentioned(table, text)) for who, text in narration_lines(table)]
    comps = [c for c in s.components.values() if c.kind != "location" and c.created_by]
    out: dict[str, Any] = {}
    for p in s.players:
        own = {c.id for c in comps if c.created_by == p.name}
        others = [ids for who, ids in lines if who != p.name]
        used = sum(1 for ids in others if ids & own)
        out[p.name] = {"lines_by_others_naming_its_components": used / len(others) if others else 0.0,
                       "share_of_components": len(own) / len(comps) if comps else 0.0}
    return out


def dead_acting(table: Any) -> int:
    """Statements after a component's elimination in which it acts: performer, receiver, speaker
    or listener of an Event or Dialog, or the first words of a seat's line (issue 23's "an
    eliminated component acts in a later scene"). A return (restore) clears it."""
    s = table.state
    gone: dict[str, str] = {}
    fate: dict[str, str] = {}
    n = 0
    for e in table.events:
        cid = e.data.get("component")
        if e.kind == "eliminate" and cid:
            gone[cid] = s.components[cid].label.lower() if cid in s.components else cid
            fate[cid] = e.text
            continue
        if e.kind == "statement_withdrawn":  # a Challenge took the elimination back
            for back in [k for k, txt in fate.items() if k in gone and txt and txt in e.text]:
                del gone[back]
            continue
        if e.kind == "return" and cid in gone:
            del gone[cid]
            continue
        if not gone or not e.player or e.kind in HIDDEN:
            continue
        roles = {e.data.get(k) for k in ("performer", "receiver", "speaker", "listener")}
        text = e.text.lower()
        if roles & set(gone) or (e.kind in ("event", "dialog", "fact")
                                 and any(text.startswith((lab, f"the {lab}")) for lab in gone.values())):
            n += 1
    return n


def contradicting_statements(table: Any) -> dict[str, Any]:
    """Seat statements that contradict an earlier Fact, judged by the offline contradiction check.

    Each Event, Trait, detail or Dialog line is judged against the earlier live Facts about the
    same component and the Tenets (what the pre-send check sees); a contradiction of an outcome
    or an elimination is counted by `dead_acting` and by the judge ("alive" after "dead").
    """
    from agents.memory.contradiction import HeuristicJudge
    from agents.memory.game import records_from_state

    judge = HeuristicJudge()
    recs = records_from_state(table.state, str(table.header.get("game_id") or "story"))
    found: list[tuple[str, str, str]] = []
    n = 0
    for i, r in enumerate(recs):
        if r.kind not in ("event", "trait", "detail", "dialog") or r.removed:
            continue
        n += 1
        for p in recs[:i]:
            if p.removed or not (p.kind == "tenet" or (p.component_name and p.component_name == r.component_name)):
                continue
            v = judge.judge(r.text, p)
            if v.contradicts:
                found.append((r.text, p.text, v.reason))
                break
    return {"statements": n, "contradicting": len(found), "examples": found[:5]}


def game_story(seed: int, seats: int = 4, scenes: int = 10) -> dict[str, Any]:
    coins: list[list[int]] = []

    def watch(table: Any) -> None:
        while len(coins) < table.state.scenes_ended:
            coins.append([p.wealth + getattr(p, "stake", 0) for p in table.state.players])

    res = simulate_game(seats=seats, scenes=scenes, seed=seed, progress=watch, every=1)
    t = res.table
    lines = narration_lines(t)
    maskers = _maskers(t)
    all_frames = Counter(frame_of(text, maskers) for _, text in lines)
    frames = Counter({f: k for f, k in all_frames.items() if re.search(r"[a-z]", re.sub(r"<[a-z]+>", "", f))})
    n = len(lines) or 1
    top = frames.most_common(5)
    own = narration_lines(t, own_words=True)
    own_frames = Counter(f for f in (frame_of(text, maskers) for _, text in own)
                         if re.search(r"[a-z]", re.sub(r"<[a-z]+>", "", f)))
    own_top = own_frames.most_common(3)
    use = cross_use(t)
    return {
        "seed": seed, "scenes": t.state.scenes_ended, "lines": len(lines),
        "top_frame_share": top[0][1] / n if top else 0.0,
        "frames_over_limit": sum(1 for _, k in frames.items() if k / n > FRAME_LIMIT),
        "top_frames": [(f, k) for f, k in top],
        "wordless_lines": sum(all_frames.values()) - sum(frames.values()),
        "own_words_lines": len(own),
        "own_words_top_frame_share": own_top[0][1] / (len(own) or 1) if own_top else 0.0,
        "own_words_top_frames": own_top,
        "distinct_2": distinct_2([text for _, text in lines]),
        "coins_per_seat_after_scene": [sum(row) / len(row) for row in coins],
        "max_seat_coins": max((max(row) for row in coins), default=0),
        "complications": sum(1 for e in t.events if e.kind == "complication"),
        "eliminated_acting": dead_acting(t),
        "contradictions": contradicting_statements(t),
        "stand_in": use.get(STAND_IN, {}),
        "others_use_mean": sum(v["lines_by_others_naming_its_components"] for v in use.values()) / max(1, len(use)),
    }


ALL_SEEDS = TUNING_SEEDS + HELD_OUT_SEEDS + BLIND_SEEDS


def run_story(seeds: tuple[int, ...] = ALL_SEEDS, seats: int = 4, scenes: int = 10) -> dict[str, Any]:
    """Figures per seed, and means over the tuning, held-out and blind seeds separately (a seed
    in none of them counts as held out)."""
    games = [game_story(sd, seats, scenes) for sd in seeds]

    def mean(group: tuple[int, ...]) -> dict[str, Any]:
        g = [x for x in games if x["seed"] in group]
        if not g:
            return {}
        k = len(g)
        curve_len = max(len(x["coins_per_seat_after_scene"]) for x in g)
        curve = [sum(x["coins_per_seat_after_scene"][i] for x in g if len(x["coins_per_seat_after_scene"]) > i)
                 / max(1, sum(1 for x in g if len(x["coins_per_seat_after_scene"]) > i)) for i in range(curve_len)]
        finals = [x["coins_per_seat_after_scene"][-1] for x in g if x["coins_per_seat_after_scene"]]
        return {"games": k, "top_frame_share": sum(x["top_frame_share"] for x in g) / k,
                "coins_per_seat_at_end_by_seed": {x["seed"]: round(x["coins_per_seat_after_scene"][-1], 2)
                                                  for x in g if x["coins_per_seat_after_scene"]},
                "seeds_outside_25_40": sum(1 for v in finals if not 25 <= v <= 40),
                "max_seat_coins": max(x["max_seat_coins"] for x in g),
                "worst_top_frame_share": max(x["top_frame_share"] for x in g),
                "frames_over_limit": sum(x["frames_over_limit"] for x in g) / k,
                "own_words_top_frame_share": sum(x["own_words_top_frame_share"] for x in g) / k,
                "worst_own_words_top_frame_share": max(x["own_words_top_frame_share"] for x in g),
                "distinct_2": sum(x["distinct_2"] for x in g) / k,
                "coins_per_seat_after_scene": curve,
                "complications_per_game": sum(x["complications"] for x in g) / k,
                "eliminated_acting": sum(x["eliminated_acting"] for x in g),
                "contradicting_statements": sum(x["contradictions"]["contradicting"] for x in g),
                "stand_in_used_by_others": sum(x["stand_in"].get("lines_by_others_naming_its_components", 0)
                                               for x in g) / k,
                "others_use_mean": sum(x["others_use_mean"] for x in g) / k}

    return {"seats": seats, "scenes": scenes, "frame_limit": FRAME_LIMIT, "games": games,
            "tuning": mean(tuple(s for s in seeds if s in TUNING_SEEDS)),
            "held_out": mean(tuple(s for s in seeds if s not in TUNING_SEEDS and s not in BLIND_SEEDS)),
            "blind": mean(tuple(s for s in seeds if s in BLIND_SEEDS))}


def story_lines(st: dict[str, Any]) -> list[str]:
    """What `storytable eval` prints of the story figures: per seed group, the coins per seat after
    each scene, the largest frame share, distinct-2, contradictions and the stand-in's components used."""
    out = []
    for label in ("tuning", "held_out", "blind"):
        g = st.get(label) or {}
        if not g:
            continue
        curve = " ".join(f"{x:.0f}" for x in g["coins_per_seat_after_scene"])
        ends = ", ".join(f"{k}: {v:.1f}" for k, v in g["coins_per_seat_at_end_by_seed"].items())
        out.append(f"story {label} ({g['games']} games of {st.get('seats')} seats x {st.get('scenes')} scenes): "
                   f"coins per seat after each scene {curve}; at the end by seed {ends} "
                   f"({g['seeds_outside_25_40']} outside 25-40)")
        out.append(f"  largest frame share {100 * g['worst_top_frame_share']:.2f}% worst game "
                   f"(mean {100 * g['top_frame_share']:.2f}%, limit {100 * st.get('frame_limit', FRAME_LIMIT):.0f}%), "
                   f"distinct-2 {g['distinct_2']:.3f}, contradicting statements {g['contradicting_statements']}, "
                   f"eliminated acting {g['eliminated_acting']}, other seats' lines naming {STAND_IN}'s components "
                   f"{100 * g['stand_in_used_by_others']:.1f}%")
    return out


if __name__ == "__main__":  # python -m eval.story [seed ...]
    import json
    import sys

    chosen = tuple(int(x) for x in sys.argv[1:]) or TUNING_SEEDS + HELD_OUT_SEEDS
    out = run_story(chosen)
    for g in out["games"]:
        print(json.dumps({k: v for k, v in g.items()}, default=str))
    print(json.dumps({"tuning": out["tuning"], "held_out": out["held_out"], "blind": out["blind"]}, indent=1))
    print("\n".join(story_lines(out)))
