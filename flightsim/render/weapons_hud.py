"""The weapons' part of the HUD (issue 35), drawn over every view from the player's ``WeaponsView``
(world/armament.py) in the combat's published frame, nothing else:

* the target designator box on the radar's lock (dashed while it is still acquiring), with the
  range and closure beside it;
* the selected infrared missile's seeker circle: on the target while the seeker has it (the tone),
  else round the boresight as wide as its field of view (or its gimbal when the radar leads it);
* the dynamic launch zone on a range scale at the right: Rmax and Rne as a staple, Rmin as a tick,
  the target's range as a caret (green inside Rne, amber inside Rmax, white outside);
* the selected weapon and what is left of each, flares and chaff, lower left;
* the radar's B-scope, left above the stores: azimuth across, range up, the contact a box, filled when locked;
* the gun funnel while the gun is selected (render/gun_funnel.py);
* the missile warning, flashing, with the bearing of each missile guiding on the player; and
  SHOT DOWN when a missile killed the player.
"""
from __future__ import annotations

import math

import numpy as np

GREEN = (120, 255, 140, 255)
GREEN_F = (0.47, 1.0, 0.55, 0.95)
AMBER = (255, 190, 60, 255)
AMBER_F = (1.0, 0.75, 0.25, 0.95)
WHITE_F = (0.95, 0.95, 0.95, 0.9)
RED = (255, 80, 60, 255)
RED_F = (1.0, 0.3, 0.25, 0.95)
PANEL = (0, 0, 0, 0.45)
SCOPE_KM = (10.0, 20.0, 40.0, 80.0, 160.0)


def _project(view, m_proj, w, h, d):
    """Screen pixel of the direction ``d`` (NED) from the eye, or None behind it."""
    c = (m_proj @ view.m_view) @ np.array([d[0], d[1], d[2], 0.0])
    if c[3] <= 1e-6:
        return None
    return np.array([(c[0] / c[3] + 1) * 0.5 * w, (c[1] / c[3] + 1) * 0.5 * h])


def _pixels_per_rad(m_proj, h) -> float:
    return 0.5 * h * float(m_proj[1, 1])


def draw_weapons(cv, tb, frame, view, m_proj, pose, w, h, k, size, now_s, funnel=None) -> None:
    """Everything in the module docstring, into the overlay's canvas ``cv`` and text bank ``tb``;
    ``funnel``: the gun funnel (render/gun_funnel.py), drawn while the gun is selected."""
    wv = frame.weapons
    if wv is None:
        return
    eye = np.asarray(view.eye_ned_m, dtype=float)
    if funnel is not None and wv.selected_id == "gun":
        walls = funnel.walls(eye, lambda d: _project(view, m_proj, w, h, d))
        if walls is not None:
            for wall in walls:
                cv.polyline(wall, 1.6 * k, GREEN_F)
    if wv.lock and wv.lock_position_ned_m is not None:
        _designator(cv, tb, wv, view, m_proj, eye, w, h, k, size)
    if wv.seeker_limit_deg > 0.0:
        _seeker(cv, wv, view, m_proj, eye, pose, w, h, k)
    if wv.zone is not None:
        kind = next((kind for wid, _, kind in wv.loadout if wid == wv.selected_id), "")
        _zone(cv, tb, wv.zone, w, h, k, size, wv.tone if kind == "infrared" else wv.lock == "locked")
    _stores(cv, tb, wv, w, h, k, size)
    if wv.radar_range_m > 0.0:
        _scope(cv, tb, wv, w, h, k, size)
    flash = int(now_s * 3.0) % 2 == 0
    if wv.warning and flash:
        tb.put("msl_warn", "MISSILE", w / 2, h * 0.72, size=size * 2.0, color=RED, bold=True)
        cx, cy, r = w / 2, h * 0.72 - 70 * k, 40 * k        # a dial: ahead up, the missile's bearing on it
        cv.ring(cx, cy, r, 1.4 * k, RED_F)
        for i, (bearing, tgo) in enumerate(wv.warning[:4]):
            x, y = cx + r * math.sin(bearing), cy + r * math.cos(bearing)
            cv.disc(x, y, 6 * k, RED_F)
            tb.put(("msl_tgo", i), f"{tgo:.0f}s" if math.isfinite(tgo) else "", x, y + 14 * k, size=size, color=RED)
    if frame.player_down:
        tb.put("shot_down", frame.player_down + "   R: fly again", w / 2, h * 0.58, size=size * 2.2, color=RED,
               bold=True)


def _designator(cv, tb, wv, view, m_proj, eye, w, h, k, size) -> None:
    p = _project(view, m_proj, w, h, np.asarray(wv.lock_position_ned_m) - eye)
    if p is None:
        return
    x, y = p
    r = 14 * k
    col = GREEN_F if wv.lock == "locked" else AMBER_F
    corners = [(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)]
    if wv.lock == "locked":
        cv.polyline(corners, 1.8 * k, col, closed=True)
    else:                                            # dashed while acquiring
        for a, b in zip(corners, corners[1:] + corners[:1]):
            a, b = np.array(a), np.array(b)
            for f0 in (0.0, 0.5):
                cv.lines([a + (b - a) * f0], [a + (b - a) * (f0 + 0.3)], 1.8 * k, col)
    rng = float(np.linalg.norm(np.asarray(wv.lock_position_ned_m) - eye))
    tb.put("td_range", f"{rng / 1000.0:.1f}", x + r + 6 * k, y - r, size=size, color=GREEN if wv.lock == "locked"
           else AMBER, anchor_x="left")


def _seeker(cv, wv, view, m_proj, eye, pose, w, h, k) -> None:
    from ..runtime.handoff import dcm
    col = GREEN_F if wv.tone else WHITE_F
    if wv.tone and wv.lock_position_ned_m is not None:
        p = _project(view, m_proj, w, h, np.asarray(wv.lock_position_ned_m) - eye)
        r = 10 * k
    else:
        p = _project(view, m_proj, w, h, dcm(pose.quat_wxyz)[:, 0])
        r = max(8 * k, _pixels_per_rad(m_proj, h) * math.radians(wv.seeker_limit_deg if not wv.lock else 1.75))
    if p is not None:
        cv.ring(p[0], p[1], r, 1.6 * k, col)


def _zone(cv, tb, zone, w, h, k, size, ready: bool) -> None:
    """The launch zone's scale at the right: 0 at the bottom, the scale a step above Rmax; SHOOT
    inside Rne with the seeker's tone or the radar's lock (``ready``)."""
    rmax, rne, rmin, rng = zone
    if rmax <= 0.0:
        return
    top_km = next((s for s in SCOPE_KM if s * 1000.0 >= 1.2 * max(rmax, rng)), SCOPE_KM[-1])
    x = w - 150 * k
    y0, y1 = h * 0.30, h * 0.70

    def y_of(r):
        return y0 + (y1 - y0) * min(r / (top_km * 1000.0), 1.0)
    cv.lines([(x, y0)], [(x, y1)], 1.4 * k, WHITE_F)
    tb.put("dlz_top", f"{top_km:.0f}", x, y1 + 10 * k, size=size * 0.9, color=(230, 230, 230, 230))
    # the staple: Rmax to Rne, and the Rmin tick
    cv.lines([(x - 10 * k, y_of(rmax)), (x - 10 * k, y_of(rne)), (x - 10 * k, y_of(rmax))],
             [(x, y_of(rmax)), (x, y_of(rne)), (x - 10 * k, y_of(rne))], 2.0 * k, GREEN_F)
    cv.lines([(x - 10 * k, y_of(rmin))], [(x, y_of(rmin))], 2.0 * k, GREEN_F)
    col = GREEN_F if rmin <= rng <= rne else AMBER_F if rmin <= rng <= rmax else WHITE_F
    yc = y_of(rng)
    cv.triangle((x + 2 * k, yc), (x + 14 * k, yc + 6 * k), (x + 14 * k, yc - 6 * k), col)
    tb.put("dlz_rng", f"{rng / 1000.0:.1f}", x + 18 * k, yc, size=size, color=GREEN if col is GREEN_F else AMBER
           if col is AMBER_F else (235, 235, 235, 255), anchor_x="left")
    if rmin <= rng <= rne and ready:
        tb.put("dlz_shoot", "SHOOT", x, y0 - 14 * k, size=size * 1.2, color=GREEN, bold=True)
    elif rmin <= rng <= rmax:
        tb.put("dlz_shoot", "IN RANGE", x, y0 - 14 * k, size=size, color=AMBER, bold=True)


def _stores(cv, tb, wv, w, h, k, size) -> None:
    x0, y0 = 12 * k, 140 * k                        # above the chase views' corner readouts
    rows = [(("> " if name.upper() == wv.selected.upper() else "  ") + f"{name} {n if name != 'GUN' else ''}")
            for name, n in wv.selection]
    rows.append(f"  FLR {wv.flares}  CHF {wv.chaff}")
    text = "\n".join(rows)
    top = y0 + 100 * k
    tb.put("stores", text, x0 + 8 * k, top - 6 * k, size=size, color=GREEN, anchor_x="left", anchor_y="top",
           multiline_width=190 * k)
    cv.rounded_rect(x0, top - tb.size("stores")[1] - 12 * k, x0 + 200 * k, top, 5 * k, PANEL)


def _scope(cv, tb, wv, w, h, k, size) -> None:
    """A B-scope: azimuth -60..60 deg across, range 0..scale up."""
    side = 130 * k
    x0, y0 = 12 * k, 250 * k                        # left, above the stores' list
    cv.rect(x0, y0, x0 + side, y0 + side, PANEL)
    cv.polyline([(x0, y0), (x0 + side, y0), (x0 + side, y0 + side), (x0, y0 + side)], 1.0 * k, GREEN_F, closed=True)
    top_km = SCOPE_KM[-1]
    for rng, az, seen, locked in wv.contacts:
        top_km = next((s for s in SCOPE_KM if s * 1000.0 >= 1.2 * rng), SCOPE_KM[-1])
        if not seen and not locked:
            continue
        x = x0 + side * (0.5 + max(-1.0, min(1.0, math.degrees(az) / 60.0)) * 0.5)
        y = y0 + side * min(rng / (top_km * 1000.0), 1.0)
        r = 4 * k
        if locked:
            cv.rect(x - r, y - r, x + r, y + r, GREEN_F)
        else:
            cv.polyline([(x - r, y - r), (x + r, y - r), (x + r, y + r), (x - r, y + r)], 1.4 * k, GREEN_F, closed=True)
    tb.put("scope", f"RDR {top_km:.0f} km" + ("  LOCK" if wv.lock == "locked" else ""), x0 + side / 2,
           y0 + side + 10 * k, size=size * 0.9, color=GREEN)
