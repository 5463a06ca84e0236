"""FactRecord: the plain value the rules engine hands to memory.

Why plain: the engine, the CLI and the eval harness all build these, and the
index must be rebuildable from nothing but a list of them (the game log is the
truth; the vector store is a cache).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any, Mapping

__all__ = ["FACT_KINDS", "FactRecord"]

FACT_KINDS = frozenset({"trait", "event", "detail", "tenet", "dialog", "time", "absence"})


@dataclass(frozen=True)
class FactRecord:
    """One paid Fact. `seq` is its event number in the game log."""

    id: str
    text: str
    kind: str  # trait|event|detail|tenet|dialog|time|absence
    game_id: str
    scene: int | None
    component_id: str | None
    component_name: str | None
    paid_by: str | None
    seq: int
    removed: bool = False
    eliminated: bool = False  # its component was eliminated (U-ELIM); the Fact stays as history
    place: str | None = None  # name of the location of the scene it was bought in
    mentions: tuple[str, ...] = ()  # ids of every component it is about, its own first
    origin: str | None = None  # "outcome" (a roll's narration) or "elimination" (U-ELIM), from the rules

    def __post_init__(self) -> None:
        if not isinstance(self.mentions, tuple):  # JSON gives a list
            object.__setattr__(self, "mentions", tuple(self.mentions or ()))

    @property
    def about(self) -> tuple[str, ...]:
        """Every component the Fact is about: its own, then the others it mentions (an older record may list none)."""
        return tuple(dict.fromkeys((*([self.component_id] if self.component_id else []), *self.mentions)))

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict (`mentions` as a list)."""
        data = asdict(self)
        data["mentions"] = list(self.mentions)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], game_id: str | None = None) -> "FactRecord":
        """Build from a JSON object; unknown keys are ignored, `game_id` fills a missing one."""
        names = {f.name for f in fields(cls)}
        kwargs = {k: v for k, v in data.items() if k in names}
        if game_id is not None and not kwargs.get("game_id"):
            kwargs["game_id"] = game_id
        missing = [n for n in ("id", "text", "kind", "game_id", "seq") if n not in kwargs]
        if missing:
            raise ValueError(f"fact record {data.get('id', '?')!r} lacks {', '.join(missing)}")
        for optional in ("scene", "component_id", "component_name", "paid_by"):
            kwargs.setdefault(optional, None)
        return cls(**kwargs)

    @classmethod
    def from_view(cls, view: Any, game_id: str) -> "FactRecord":
        """Adapt the engine's `FactView` (duck-typed, so memory does not import the engine)."""
        return cls(
            id=view.id, text=view.text, kind=view.kind, game_id=game_id, scene=view.scene,
            component_id=view.component_id, component_name=view.component_name,
            paid_by=getattr(view, "by", None), seq=view.seq, removed=bool(view.removed),
            eliminated=bool(getattr(view, "eliminated", False)), place=getattr(view, "place", None),
            mentions=tuple(getattr(view, "mentions", ()) or ()), origin=getattr(view, "origin", None),
        )

    def to_metadata(self) -> dict[str, Any]:
        """Chroma metadata: None values are dropped (Chroma does not store them)."""
        meta: dict[str, Any] = {
            "kind": self.kind, "game_id": self.game_id, "seq": int(self.seq), "removed": bool(self.removed),
            "eliminated": bool(self.eliminated),
        }
        if self.scene is not None:
            meta["scene"] = int(self.scene)
        for key in ("component_id", "component_name", "paid_by", "place", "origin"):
            value = getattr(self, key)
            if value is not None:
                meta[key] = value
        if self.mentions:
            meta["mentions"] = ",".join(self.mentions)  # Chroma metadata holds no lists
        return meta

    @classmethod
    def from_metadata(cls, fact_id: str, text: str | None, meta: Mapping[str, Any] | None) -> "FactRecord":
        meta = meta or {}
        return cls(
            id=fact_id, text=text or "", kind=str(meta.get("kind", "detail")), game_id=str(meta.get("game_id", "")),
            scene=meta.get("scene"), component_id=meta.get("component_id"),
            component_name=meta.get("component_name"), paid_by=meta.get("paid_by"),
            seq=int(meta.get("seq", 0)), removed=bool(meta.get("removed", False)),
            eliminated=bool(meta.get("eliminated", False)), place=meta.get("place"), origin=meta.get("origin"),
            mentions=tuple(m for m in str(meta.get("mentions") or "").split(",") if m),
        )
