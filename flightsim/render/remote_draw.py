"""The other players' aircraft (multiplayer over DIS, issue 36): each drawn with the 3D model and
livery of the aircraft of ours nearest its entity type (flightsim/net/entity_types.py), where the
session's frame puts it at this frame's wall time: on its smoothed dead-reckoned path
(flightsim/net/dead_reckoning.py), so it never jumps.

The renderer reads only the session's published frame (``NetFrame``): no network, no physics here.
A type's model and painted atlas are made the first time an aircraft of it is seen (a moment's
work the first time on a machine, then from the disk cache), and kept for the game.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..physics.named import AircraftView
from ..physics.state import make_state
from ..world.articulation import Articulation
from .glutil import mat4, translate

PROP_RPM = 2400.0                  # a remote propeller's rpm while its engine runs (DIS does not send it)
# its control surfaces are those it sends as articulated parts (world/articulation.py); a sender that
# sends none (another DIS tool) has them inferred from its body rates: full aileron at this roll rate,
# full elevator at this pitch rate, full rudder at this yaw rate, rad/s; a fighter's (about 150 deg/s
# of roll, a 6 g turn's pitch rate)
FULL_ROLL_RADS, FULL_PITCH_RADS, FULL_YAW_RADS = 2.6, 0.6, 0.5


class RemoteRenderer:
    """GL resources for the remote aircraft; ``update`` with the session's frame each frame, then
    the Renderer calls ``draw`` (and ``flames`` for the jets' afterburners)."""

    def __init__(self, ctx, renderer):
        self.ctx = ctx
        self.renderer = renderer
        self.types: dict = {}               # our aircraft id -> {drawer, mesh, cg, n_sections, n_stores} or None
        self.frame = None
        self.drawn = 0
        self._last_wall = None

    def _type(self, kind: str):
        if kind in self.types:
            return self.types[kind]
        entry = None
        try:
            from ..aircraft_data.compile import compile_aircraft
            from ..physics.named_model import AircraftData
            from .aircraft_draw import AircraftDrawer
            from .model import looks
            comp = compile_aircraft(kind)
            r = self.renderer
            lk = looks.look(comp, r.quality)
            if lk is not None:
                data = AircraftData(comp.model)
                cg = np.asarray(comp.cg_m, dtype=np.float64)
                entry = {"drawer": AircraftDrawer(self.ctx, lk, cg, low=r.quality == "low",
                                                  shadow_defines=r.shadow.defines(),
                                                  anisotropy=r.q.get("anisotropy", 1.0)),
                         "mesh": lk.model, "cg": cg, "n_sections": data.n_sections, "n_stores": len(data.stores),
                         "data": data, "scratch": make_state(), "articulation": Articulation(comp.model)}
        except Exception as e:               # a type we cannot draw: said once, the others still drawn
            print(f"multiplayer: cannot draw a {kind}: {e}", flush=True)
        self.types[kind] = entry
        return entry

    def update(self, frame) -> None:
        self.frame = frame

    def _poses(self):
        f = self.frame
        if f is None:
            return []
        out = []
        for r in f.remotes:
            t = self._type(r.aircraft)
            if t is None:
                continue
            out.append((r, t))
        return out

    def draw(self, view, m_proj, common) -> int:
        tris = 0
        self.drawn = 0
        f = self.frame
        dt = 0.0
        if f is not None:
            dt = 0.0 if self._last_wall is None else min(max(f.wall_s - self._last_wall, 0.0), 0.1)
            self._last_wall = f.wall_s
        eye = np.asarray(view.eye_ned_m, dtype=np.float64)
        for r, t in self._poses():
            dr = t["drawer"]
            n = t["n_sections"]
            dr.spin(PROP_RPM if r.engine_on else 0.0, dt)
            model = mat4(np.asarray(r.R, dtype=np.float64), r.position_ned_m - eye) @ translate(-t["cg"])
            # its surfaces as it sent them (articulated parts), else as its body rates suggest
            defl = t["articulation"].deflections(r.parts) if r.parts else surfaces(t, r.omega_body_rads)
            gear_up = 1.0 - r.parts["gear"] if "gear" in r.parts else (0.0 if r.gear_down else 1.0)
            parts = dr.parts(defl, r.parts.get("speed_brake", 0.0), gear_up, np.zeros(n), np.zeros(n),
                             np.zeros(t["n_stores"]))
            tris += dr.draw(view, m_proj, common, model, parts, shadow=getattr(self.renderer, "shadow", None))
            self.drawn += 1
        return tris

    def flames(self) -> list:
        """The afterburning remotes' nozzles for the renderer's flames: (nozzles, aft axis, ab, spool)."""
        out = []
        f = self.frame
        if f is None:
            return out
        for r in f.remotes:
            t = self.types.get(r.aircraft)
            if t is None or not r.afterburner or not t["mesh"].nozzles:
                continue
            R = np.asarray(r.R, dtype=np.float64)
            noz = [(r.position_ned_m + (np.asarray(p) - t["cg"]) @ R.T, rad) for p, rad in t["mesh"].nozzles]
            out.append((noz, -R[:, 0], 1.0, 1.0))
        return out

    def trails(self) -> list:
        """(who, sources, position) of the remotes trailing smoke or on fire, for the damage trails
        (render/damage_fx.py): one source at the aircraft's centre."""
        out = []
        f = self.frame
        if f is None:
            return out
        for r in f.remotes:
            src = []
            if r.flaming:
                src.append(("fire", (0.0, 0.0, 0.0), 1.0))
            elif r.smoke:
                src.append(("smoke", (0.0, 0.0, 0.0), 0.8))
            if src:
                out.append((f"remote{r.key}", tuple(src), r.position_ned_m))
        return out

    def release(self) -> None:
        for t in self.types.values():
            if t is not None:
                t["drawer"].release()
        self.types = {}


WARN_S = 10.0                      # a missile launched at us stays on the line this long


def surfaces(t: dict, omega) -> np.ndarray:
    """Each section's deflection (rad) for a remote of this type turning at ``omega`` (body rates):
    the stick a pilot would hold for it (see FULL_*_RADS), through the type's own gearing."""
    view = AircraftView(t["scratch"])
    p, q, r = (float(x) for x in omega)
    view.set_surface("roll", float(np.clip(p / FULL_ROLL_RADS, -1.0, 1.0)))
    view.set_surface("pitch", float(np.clip(q / FULL_PITCH_RADS, -1.0, 1.0)))
    view.set_surface("yaw", float(np.clip(r / FULL_YAW_RADS, -1.0, 1.0)))
    return t["data"].section_deflections_rad(t["scratch"])


def pilots_line(frame, most: int = 4) -> str:
    """The HUD's line of the other players present: callsign, range and ping, nearest first; led by
    MISSILE LAUNCH (callsign) for WARN_S after another player launched a missile at us."""
    if frame is None:
        return ""
    warn = [e for e in frame.events if e[1] == "missile launch" and frame.wall_s - e[0] <= WARN_S]
    if warn:
        return f"MISSILE LAUNCH ({warn[-1][2]})   " + pilots_line(replace(frame, events=()), most)
    if not frame.peers:
        return f"MP {frame.listen_port}: no other pilots"
    parts = []
    for p in frame.peers[:most]:
        rng = f"{p.distance_m / 1000.0:.1f} km" if p.distance_m >= 1000.0 else f"{p.distance_m:.0f} m"
        ping = "" if p.ping_ms is None else f" {p.ping_ms:.0f} ms"
        parts.append(f"{p.callsign} {rng}{ping}")
    more = f" +{len(frame.peers) - most}" if len(frame.peers) > most else ""
    return f"PILOTS {len(frame.peers)}: " + ", ".join(parts) + more

