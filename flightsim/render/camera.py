"""Cameras: where the aircraft is seen from. The ONLY place NED becomes GL's y-up axes.

A camera produces a ``View``: the eye in NED, the camera's forward/right/down unit
vectors in NED, and the field of view. ``View.m_view`` is the GL view matrix acting on
NED vectors relative to the eye (GL x = right, y = up, -z = forward); everything the
renderer draws is given in NED relative to the eye and goes through it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..runtime.handoff import Pose, dcm
from .glutil import perspective

DOWN = np.array([0.0, 0.0, 1.0])
VIEWS = ("cockpit", "chase", "orbit", "tower", "hud", "panel")
HEAD_VIEWS = ("cockpit", "hud", "panel")        # seen from the pilot's eye
COCKPIT_FOV_DEG = 68.0
COCKPIT_PITCH_DEG = -7.0           # the head's rest: a little down, the sight and the panel's top in view

SNAPS = {"look_front": (0.0, math.radians(COCKPIT_PITCH_DEG)), "look_left": (math.radians(-90.0), math.radians(5.0)),
         "look_right": (math.radians(90.0), math.radians(5.0)), "look_back": (math.radians(165.0), math.radians(10.0)),
         "look_up": (0.0, math.radians(60.0)), "look_front_left": (math.radians(-45.0), 0.0),
         "look_front_right": (math.radians(45.0), 0.0), "look_down": (0.0, math.radians(-25.0))}
ZOOM_LIMITS = (0.35, 1.4)          # the cockpit's field of view times this (zoom in .. out)


@dataclass
class View:
    eye_ned_m: np.ndarray
    forward: np.ndarray
    right: np.ndarray
    down: np.ndarray
    fovy_rad: float = math.radians(55.0)
    near_m: float = 0.5
    far_m: float = 40000.0

    @property
    def m_view(self) -> np.ndarray:
        """GL view rotation (4x4) for NED vectors relative to the eye."""
        m = np.eye(4)
        m[0, :3] = self.right          # GL x
        m[1, :3] = -self.down          # GL y (up)
        m[2, :3] = -self.forward       # GL z (backwards)
        return m

    def m_proj(self, aspect: float) -> np.ndarray:
        return perspective(self.fovy_rad, aspect, self.near_m, self.far_m)


def look_at(eye, target, fovy_rad=math.radians(55.0), near_m=0.5, up_ned=None) -> View:
    eye = np.asarray(eye, dtype=np.float64)
    f = np.asarray(target, dtype=np.float64) - eye
    f /= max(np.linalg.norm(f), 1e-9)
    d0 = DOWN if up_ned is None else -np.asarray(up_ned, dtype=np.float64)
    r = np.cross(d0, f)
    if np.linalg.norm(r) < 1e-6:
        r = np.cross(np.array([1.0, 0.0, 0.0]), f)
    r /= np.linalg.norm(r)
    d = np.cross(f, r)
    return View(eye, f, r, d, fovy_rad, near_m)


def _frame(R, yaw, pitch):
    """Camera axes from a body rotation R and a look-around (yaw right, pitch up)."""
    cy, sy, cp, sp = math.cos(yaw), math.sin(yaw), math.cos(pitch), math.sin(pitch)
    f_b = np.array([cp * cy, cp * sy, -sp])
    r_b = np.array([-sy, cy, 0.0])
    d_b = np.cross(f_b, r_b)
    return R @ f_b, R @ r_b, R @ d_b


class CameraRig:
    """All cameras of one aircraft; ``view(pose, dt)`` for the active one."""

    def __init__(self, compiled, terrain=None, tower_ned=None, eye_body=None):
        self.mode = "chase"
        self.terrain = terrain
        self.cg = np.asarray(compiled.cg_m, dtype=np.float64)
        # the design eye point of the aircraft's cockpit (visual.toml), else one from the pilot's seat
        self.eye_body = np.asarray(eye_body, dtype=np.float64) if eye_body is not None else self._pilot_eye(compiled)
        self.zoom = 1.0                 # the cockpit's field of view times this
        self.snap_target = None         # (yaw, pitch) a snap view turns the head to
        # the aircraft's size for the outside views: its span, or for a short-span, long-bodied
        # one (the Bf 109: 9.9 m span, 8.6 m fuselage) its length, so the chase view clears the tail
        length = max((s.spec["chord_m"] for s in compiled.sections if s.spec["group"] == "body"), default=0.0)
        span = max(getattr(compiled, "wing_span_m", 10.0), 1.25 * length, 5.0)
        self.size_m = span
        self.look_yaw = 0.0
        self.look_pitch = math.radians(COCKPIT_PITCH_DEG)
        self.orbit_yaw = math.radians(150.0)
        self.orbit_pitch = math.radians(15.0)
        self.orbit_dist = 1.1 * span
        self.chase_dist = 0.95 * span
        self.tower_ned = None if tower_ned is None else np.asarray(tower_ned, dtype=np.float64)
        self._chase_dir = None
        self._flyby = None

    @staticmethod
    def _pilot_eye(compiled) -> np.ndarray:
        for m in compiled.spec.masses:
            if "pilot" in m["name"]:
                x, y, z = m["position_m"]
                sx, sy, sz = m["size_m"]
                return np.array([x + 0.25 * sx, y, z - 0.5 * sz - 0.35])
        body = [s for s in compiled.sections if s.spec["group"] == "body"]
        if body:
            s = body[0]
            return s.pos + s.chord_ax * 0.1 * s.spec["chord_m"] + np.array([0.0, 0.0, -0.3])
        return np.array([1.0, 0.0, -0.5])

    def cycle(self, mode=None):
        order = ["cockpit", "chase", "orbit", "tower"]
        self.mode = mode or order[(order.index(self.mode) + 1) % len(order)] if self.mode in order else "chase"

    def _ground_clear(self, eye):
        if self.terrain is not None:
            g = self.terrain.height_at(eye[0], eye[1])
            eye[2] = min(eye[2], -g - 1.5)
        return eye

    def snap(self, name: str):
        """Turn the head to a snap view (look_left, look_back ...: SNAPS); look_front centres."""
        self.snap_target = SNAPS[name]

    def zoom_by(self, factor: float):
        self.zoom = float(np.clip(self.zoom * factor, *ZOOM_LIMITS))

    def head_offset(self) -> np.ndarray:
        """Where the head moves with the look (body axes, m): a pilot looking back leans and
        turns his shoulders to see past the head armour and the seat; looking up, he rises a
        little. Without it the rear view is the armour plate's back."""
        yaw, pitch = self.look_yaw, self.look_pitch
        back = max(0.0, (abs(yaw) - math.radians(60.0)) / math.radians(100.0))
        side = math.copysign(min(back, 1.0) * 0.14, yaw)
        return np.array([0.06 * min(back, 1.0), side, -0.04 * max(math.sin(pitch), 0.0)])

    def _turn_head(self, dt_s: float):
        if self.snap_target is None:
            return
        yaw, pitch = self.snap_target
        k = 1.0 - math.exp(-max(dt_s, 0.0) / 0.09)
        self.look_yaw += (yaw - self.look_yaw) * k
        self.look_pitch += (pitch - self.look_pitch) * k
        if abs(yaw - self.look_yaw) < 1e-3 and abs(pitch - self.look_pitch) < 1e-3:
            self.look_yaw, self.look_pitch = yaw, pitch
            self.snap_target = None

    def view(self, pose: Pose, dt_s: float = 1 / 60) -> View:
        R = dcm(pose.quat_wxyz)
        pos = np.asarray(pose.position_ned_m, dtype=np.float64)
        mode = "cockpit" if self.mode in HEAD_VIEWS else self.mode
        if mode == "cockpit":
            self._turn_head(dt_s)
            eye = pos + R @ (self.eye_body + self.head_offset() - self.cg)
            f, r, d = _frame(R, self.look_yaw, self.look_pitch)
            return View(eye, f, r, d, math.radians(COCKPIT_FOV_DEG) * self.zoom, 0.1)
        if mode == "orbit":
            hdg = math.atan2(R[1, 0], R[0, 0])
            yaw = hdg + self.orbit_yaw
            p = self.orbit_pitch
            off = -np.array([math.cos(p) * math.cos(yaw), math.cos(p) * math.sin(yaw), -math.sin(p)]) * self.orbit_dist
            eye = self._ground_clear(pos + off)
            return look_at(eye, pos, near_m=0.3)
        if mode == "tower":
            return self._tower(pos, pose)
        # chase: behind along the smoothed flight direction, a little above
        v = np.asarray(pose.velocity_ned_ms, dtype=np.float64)
        fwd = v if np.linalg.norm(v[:2]) > 3.0 else R[:, 0]
        fwd = fwd / max(np.linalg.norm(fwd), 1e-9)
        if self._chase_dir is None:
            self._chase_dir = fwd.copy()
        k = 1.0 - math.exp(-dt_s / 0.35)
        self._chase_dir += (fwd - self._chase_dir) * k
        cd = self._chase_dir / np.linalg.norm(self._chase_dir)
        eye = pos - cd * self.chase_dist + np.array([0.0, 0.0, -0.22 * self.chase_dist])
        eye = self._ground_clear(eye)
        return look_at(eye, pos + cd * 0.25 * self.chase_dist, near_m=0.3)

    def _tower(self, pos, pose):
        if self.tower_ned is not None and np.linalg.norm(pos[:2] - self.tower_ned[:2]) < 2500.0:
            return look_at(self.tower_ned, pos, fovy_rad=self._zoom(np.linalg.norm(pos - self.tower_ned)), near_m=1.0)
        v = np.asarray(pose.velocity_ned_ms, dtype=np.float64)
        sp = max(np.linalg.norm(v), 5.0)
        if self._flyby is None or np.dot(pos - self._flyby, v) > 0.6 * sp * 5.0 or np.linalg.norm(pos - self._flyby) > 40 * sp:
            side = np.cross(DOWN, v / sp)
            self._flyby = self._ground_clear(pos + v / sp * sp * 5.0 + side * 25.0 + np.array([0, 0, -6.0]))
        return look_at(self._flyby, pos, fovy_rad=self._zoom(np.linalg.norm(pos - self._flyby)), near_m=0.5)

    def _zoom(self, dist):
        return float(np.clip(2 * math.atan(2.5 * self.size_m / max(dist, 1.0)), math.radians(4.0), math.radians(55.0)))
