"""An aircraft's look, ready for the GPU: its exterior model and its painted atlas for one
livery, made once and kept (the model per aircraft and level of detail, the atlas per
livery on disk by render/model/paint.py).

The window's background world build calls ``prepare`` for the aircraft about to be flown
(and the AI's), so the Game on the window's thread only uploads; anything not prepared is
made on first use.
"""
from __future__ import annotations

import dataclasses
import pickle
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ... import cache_root
from ...aircraft_data.livery import Livery, choose, default_livery, livery_path, load_liveries
from ...aircraft_data.visual import check_against_aircraft, load_visual, visual_path
from . import exterior, paint
from .paint import INTERIOR

ATLAS_PX = {"high": 2048, "medium": 2048, "low": 2048}
DETAIL = {"high": "high", "medium": "medium", "low": "low"}
@dataclass
class Look:
    model: exterior.ExteriorModel
    atlas: np.ndarray              # (n, n, 4) uint8
    livery: Livery
    interior: tuple
    detail: str


_models: dict = {}
_atlases: dict = {}
_lock = threading.Lock()


def has_visual(compiled) -> bool:
    return visual_path(compiled.spec.path).exists()


def liveries_of(compiled) -> list[Livery]:
    """The aircraft's liveries (liveries.toml), or the plain white one."""
    p = livery_path(compiled.spec.path)
    return load_liveries(p) if p.exists() else [default_livery()]


MESH_VERSION = 1


def _mesh_file(compiled, detail: str) -> Path:
    h = paint.shape_digest(Path(compiled.spec.path).parent)
    h.update(f"{MESH_VERSION}:{detail}:{ATLAS_PX.get(detail, 2048)}".encode())
    return cache_root() / "mesh" / f"{h.hexdigest()[:20]}.pkl"


def _read_mesh(f: Path):
    """The model built before (without its skins: the painter's functions), or None."""
    try:
        with open(f, "rb") as fh:
            m = pickle.load(fh)
    except Exception:          # missing, cut short or from another version: build it again
        return None
    return m if isinstance(m, exterior.ExteriorModel) else None


def _write_mesh(f: Path, model) -> None:
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        tmp = f.with_suffix(".tmp")
        with open(tmp, "wb") as fh:
            pickle.dump(dataclasses.replace(model, skins=[]), fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(f)
    except OSError:
        pass


def _model(compiled, detail: str, with_skins: bool = False):
    """(visual spec, exterior model) for one level of detail: from memory, else from the disk
    cache (its skins left out: only painting a new atlas needs them), else built and kept."""
    key = (str(compiled.spec.path), detail)
    with _lock:
        m = _models.get(key)
    if m is not None and (m[1].skins or not with_skins):
        return m
    vis = load_visual(visual_path(compiled.spec.path))
    check_against_aircraft(vis, compiled.spec)
    f = _mesh_file(compiled, detail)
    model = None if with_skins else _read_mesh(f)
    if model is None:
        model = exterior.build(compiled, vis, detail=detail, atlas_px=ATLAS_PX.get(detail, 2048))
        _write_mesh(f, model)
    m = (vis, model)
    with _lock:
        _models[key] = m
    return m


def look(compiled, quality: str = "high", livery: str | None = None, side: str | None = None,
         not_side: str | None = None) -> Look | None:
    """The look of ``compiled`` (None when it has no visual.toml): the livery by id, else the
    first on ``side``, or the first not on ``not_side`` (the AI's in a same-type fight)."""
    if not has_visual(compiled):
        return None
    detail = DETAIL.get(quality, "high")
    vis, model = _model(compiled, detail)
    lv = choose(liveries_of(compiled), livery, side, not_side)
    size = ATLAS_PX.get(quality, 2048)
    key = (str(compiled.spec.path), detail, lv.key(), size)
    with _lock:
        atlas = _atlases.get(key)
    if atlas is None:
        atlas = paint.read_cached_atlas(Path(vis.path), lv, size, detail)
        if atlas is None:       # painted from the skins: the model with them
            vis, model = _model(compiled, detail, with_skins=True)
            frame = vis.canopy.frame_colour if vis.canopy is not None else None
            frame = None if frame is None else tuple(np.asarray(frame) / 255.0)
            atlas = paint.cached_atlas(model, lv, Path(vis.path), size, detail, frame)
        with _lock:
            _atlases[key] = atlas
    return Look(model, atlas, lv, INTERIOR.get(lv.nation, INTERIOR["civil"]), detail)


def prepare(compiled, quality: str = "high", **choice) -> None:
    """Make the look now (the world build's thread), so the window's thread only uploads it."""
    look(compiled, quality, **choice)
