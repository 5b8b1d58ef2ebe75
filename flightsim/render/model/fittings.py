"""The small things on an exterior: exhaust stubs and jet nozzles, gun barrels, struts, the gear's
legs, wheels and doors (folding about their hinges), stores, the cockpit's interior and the pilot.
Each adds its skins and pieces to an Assembly (render/model/assembly.py). Numpy only."""
from __future__ import annotations

import math

import numpy as np

from ...aircraft_data.damage import stores_of
from ...weapons.data import load_missile
from . import loft
from .assembly import Assembly
from .parts import Part
from .skin import Piece, Skin


def exhausts(a: Assembly, visual):
    out, nozzles = [], []
    for ex in visual.exhausts:
        for side in ((1, -1) if ex.mirror else (1,)):
            y = ex.y_m * side
            for x in ex.x_m:
                base = np.array([x, y, ex.z_m])
                if ex.kind == "nozzle":
                    d = np.array([-1.0, 0.0, 0.0])
                    fn, L = loft.tube(base + d * 0.0, base - d * ex.length_m, ex.radius_m, ex.radius_m * 0.92, False)
                    a.add(a.skin(Skin(f"nozzle_{x:.2f}_{y:.2f}", "nozzle", fn, (ex.length_m, 2 * np.pi * ex.radius_m))),
                          0, 4, 24)
                    inner = loft.disc(base + d * 0.15, -d, ex.radius_m * 0.9)
                    a.add(a.skin(Skin(f"nozzle_in_{x:.2f}_{y:.2f}", "dark", inner, (0.1, 0.1))), 0, 2, 16)
                    nozzles.append((base + d * 0.1, ex.radius_m))
                    continue
                d = np.array([-0.55, 0.8 * np.sign(y) if y else 0.0, 0.15 if ex.kind == "stub" else 0.0])
                d /= np.linalg.norm(d)
                tip = base + d * ex.length_m
                fn, L = loft.tube(base, tip, ex.radius_m, ex.radius_m * 1.15, True)
                a.add(a.skin(Skin(f"exhaust_{x:.2f}_{y:.2f}", "exhaust", fn, (0.05, 0.05))), 0, 4, 8)
                out.append((tip, d))
    return out, nozzles


def barrels(a: Assembly, visual):
    for br in visual.barrels:
        for side in ((1, -1) if br.mirror else (1,)):
            tip = np.array([br.x_m, br.y_m * side, br.z_m])
            fn, L = loft.tube(tip - np.array([br.length_m, 0.0, 0.0]), tip, br.radius_m, br.radius_m * 0.85, True)
            a.add(a.skin(Skin(f"barrel_{br.x_m:.2f}_{br.y_m * side:.2f}", "dark", fn, (0.05, 0.05))), 0, 3, 10)


def struts(a: Assembly, visual):
    """Bracing struts (a Bf 109's tailplane struts): painted tubes between two points."""
    for k, st in enumerate(visual.struts):
        for side in ((1, -1) if st.mirror else (1,)):
            p0 = np.array(st.from_m) * np.array([1.0, side, 1.0])
            p1 = np.array(st.to_m) * np.array([1.0, side, 1.0])
            fn, L = loft.tube(p0, p1, st.radius_m, st.radius_m, True)
            a.add(a.skin(Skin(f"strut_{k}_{side:+d}", "body", fn, (L, 2 * np.pi * st.radius_m), side=side)), 0, 4, 8)


def gear(a: Assembly, compiled, visual):
    for g in compiled.spec.gear:
        contact = np.asarray(g["position_m"], dtype=np.float64)
        leg = visual.gear.get(g["name"])
        if leg is None:
            r = 0.12 if g.get("steering_max_deg", 0.0) == 0.0 and g["stiffness_n_per_m"] < 30000 else 0.19
            part = a.part(Part("gear", pivot=contact + np.array([0, 0, -0.3]), retractable=bool(g["retractable"])))
            centre = contact - np.array([0.0, 0.0, r])
            a.add(a.skin(Skin(f"tyre_{g['name']}", "tyre", loft.torus(centre, (0, 1, 0), 0.72 * r, 0.28 * r),
                              (0.1, 0.1))), part, 14, 8)
            continue
        r = leg.wheel_radius_m
        hinge = np.asarray(leg.hinge, dtype=np.float64)
        centre = contact - np.array([0.0, 0.0, r])
        part = a.part(Part("gear", pivot=hinge, axis=np.asarray(leg.retract_axis), retractable=bool(g["retractable"]),
                           retract_rad=math.radians(leg.retract_deg)))
        if leg.skid:            # a skid shoe on a short post
            fn, L = loft.tube(hinge, contact - np.array([0.0, 0.0, 0.03]), 0.015, 0.015, True)
            a.add(a.skin(Skin(f"leg_{g['name']}", "metal", fn, (L, 0.1))), part, 4, 8)
            shoe = loft.box(contact - np.array([0.0, 0.0, 0.02]), (0.12, 0.5 * leg.tyre_width_m, 0.02))
            a.add(a.skin(Skin(f"skid_{g['name']}", "dark", shoe, (0.2, 0.1))), part, 16, 4)
            continue
        fn, L = loft.tube(hinge, centre, 0.045 if r > 0.2 else 0.03, 0.04 if r > 0.2 else 0.025, True)
        a.add(a.skin(Skin(f"leg_{g['name']}", "metal", fn, (L, 0.25))), part, 6, 8)
        axle = np.array([0.0, 1.0, 0.0])
        minor = 0.5 * leg.tyre_width_m
        a.add(a.skin(Skin(f"tyre_{g['name']}", "tyre", loft.torus(centre, axle, r - minor, minor), (0.2, 0.2))),
              part, 18, 8)
        for s in (-1.0, 1.0):
            hub = loft.disc(centre + axle * s * 0.6 * minor, axle * s, r - 1.2 * minor)
            a.add(a.skin(Skin(f"hub_{g['name']}_{s:+.0f}", "metal", hub, (0.2, 0.2))), part, 2, 14)
        if leg.door:
            # a fairing plate on the leg's outboard side, from the hinge to below the axle
            out = np.array([0.0, np.sign(contact[1]) if abs(contact[1]) > 0.1 else 1.0, 0.0]) * (minor + 0.03)
            d = centre - hinge
            Ld = np.linalg.norm(d)
            half_w = 0.75 * r
            fwd = np.array([1.0, 0.0, 0.0])

            def door(u, v, hinge=hinge, d=d, out=out):
                p = hinge + d * (0.05 + 0.95 * np.asarray(u, dtype=np.float64))[..., None] * 1.0
                return p + out + fwd * ((np.asarray(v, dtype=np.float64) - 0.5) * 2 * half_w)[..., None]
            a.add(a.skin(Skin(f"door_{g['name']}", "door", door, (Ld, 2 * half_w),
                              orient=-1.0 if out[1] > 0 else 1.0)), part, 2, 2)


def stores(a: Assembly, compiled):
    for k, st in enumerate(stores_of(compiled.spec)):
        if st["kind"] == "missile":
            _rounds(a, k, st)
            continue
        c = np.asarray(st["position_m"], dtype=np.float64)
        lx, ly, lz = st["size_m"]
        part = a.part(Part("store", k, c))
        bomb = st["kind"] == "bomb"

        def rad(t, bomb=bomb):
            t = np.asarray(t)
            nose = np.sqrt(np.clip(t / 0.25, 0, 1))
            tail = np.clip((1.0 - t) / (0.35 if bomb else 0.3), 0, 1) ** (0.8 if bomb else 0.6)
            return 0.5 * min(ly, lz) * np.minimum(nose, tail) + 0.01
        fn = loft.revolution(c[0] + 0.5 * lx, c[0] - 0.5 * lx, rad, centre=(c[1], c[2]))
        a.add(a.skin(Skin(f"store_{st['name']}", "bomb" if bomb else "tank", fn, (lx, np.pi * ly))), part, 12, 14)


def _rounds(a: Assembly, k: int, st: dict):
    """A missile store's rounds where its data hangs them (``rounds_m``; none given: not drawn), each
    a part of its own shown while the row's share on (parts.transforms) still holds it: the first in
    the list goes first. Each a body of its weapon's length and diameter, a blunt nose, and a cross of
    tail fins of its span (the canards and the rails left out)."""
    if not st["rounds_m"]:
        return
    m = load_missile(st["weapon"]).missile              # the round's size: its weapon's data file
    length, r, span = m["length_m"], 0.5 * m["diameter_m"], m["span_m"]
    n = len(st["rounds_m"])

    def rad(t):
        t = np.asarray(t)
        return r * np.minimum(np.sqrt(np.clip(t / 0.08, 0.0, 1.0)), np.clip((1.0 - t) / 0.02, 0.3, 1.0)) + 0.002
    for j, c in enumerate(np.asarray(st["rounds_m"], dtype=np.float64)):
        part = a.part(Part("store", k, c, shown_from=1.0 - (j + 0.5) / n))
        body = loft.revolution(c[0] + 0.5 * length, c[0] - 0.5 * length, rad, centre=(c[1], c[2]))
        a.add(a.skin(Skin(f"round_{st['name']}_{j}", "missile", body, (length, np.pi * 2 * r))), part, 10, 8)
        fin_c = c + np.array([-0.5 * length + 0.14, 0.0, 0.0])
        for half in ((0.12, 0.5 * span, 0.004), (0.12, 0.004, 0.5 * span)):
            a.add(a.skin(Skin(f"fins_{st['name']}_{j}_{int(half[1] > half[2])}", "missile", loft.box(fin_c, half),
                              (0.24, 2 * span))), part, 8, 4)


def cockpit_interior(a: Assembly, visual, fus: loft.Loft) -> dict | None:
    """The cockpit as it is seen from the seat and through the canopy: the instrument panel's
    board, the glare shield over it to the windscreen, the reflector sight's body and its
    combiner glass (or a HUD's), a head armour plate. The panel's face carries the
    instruments in the cockpit view (render/cockpit3d.py); here it is the board."""
    ck = visual.cockpit
    if ck is None:
        return None
    x = ck.panel_x_m
    top = ck.panel_top_m
    hw = ck.panel_half_width_m
    inner = max(float(fus.half(x)) * 0.96, hw)
    depth = 0.40
    board = loft.box((x - 0.01, 0.0, top + 0.5 * depth), (0.01, inner, 0.5 * depth))
    a.add(a.skin(Skin("panel_board", "interior_dark", board, (0.3, 0.3))), 0, 16, 4)
    # the glare shield: a lip over the panel's top, as wide as the instruments and a little more
    shield = loft.box((x + 0.06, 0.0, top - 0.015), (0.08, hw + 0.04, 0.015))
    a.add(a.skin(Skin("glare_shield", "interior_dark", shield, (0.3, 0.3))), 0, 16, 4)
    sight = None
    if ck.sight != "none":
        at = np.asarray(ck.sight_at if ck.sight_at is not None else (x + 0.05, 0.0, top - 0.08), dtype=np.float64)
        if ck.sight != "hud":      # a reflector sight stands on the panel: its glass just behind the panel's face
            at[0] = max(at[0], x - 0.04)
        hud = ck.sight == "hud"
        # half sizes of the combiner glass: a HUD's, a K-14's (its gyro reticle swings across a big
        # glass), a GM2's or a Revi's
        gw, gh = (0.09, 0.075) if hud else (0.065, 0.055) if ck.sight == "k14" else (0.05, 0.042)
        lean = math.radians(40.0)
        if not hud:        # the reflector sight's body, standing on the glare shield up to its glass
            z_glass = at[2] + gh * math.cos(lean)
            z_shield = top - 0.03
            if z_shield - z_glass > 0.01:
                body = loft.box((at[0] + 0.07, 0.0, 0.5 * (z_glass + z_shield)), (0.06, 0.04, 0.5 * (z_shield - z_glass)))
                a.add(a.skin(Skin("sight_body", "dark", body, (0.2, 0.2))), 0, 16, 4)
        # the combiner: a plate leaning back 40 deg from the vertical, facing the pilot
        up = np.array([-math.sin(lean), 0.0, -math.cos(lean)])
        normal = np.array([-math.cos(lean), 0.0, math.sin(lean)])
        corners = [at + s * gw * np.array([0, 1.0, 0]) + t * gh * up for s, t in ((-1, -1), (1, -1), (1, 1), (-1, 1))]

        def glass_fn(u, v, c=corners):
            u = np.asarray(u, dtype=np.float64)[..., None]
            v = np.asarray(v, dtype=np.float64)[..., None]
            return (c[0] * (1 - u) + c[1] * u) * (1 - v) + (c[3] * (1 - u) + c[2] * u) * v
        g = a.skin(Skin("combiner", "glass", glass_fn, (0.1, 0.1)))
        a.glass.append(Piece(g, 0.0, 1.0, 0.0, 1.0, 1, 1, 0))
        sight = {"kind": ck.sight, "centre": at, "corners": np.array(corners), "normal": normal}
    if ck.armour_plate:
        eye = np.asarray(ck.eye, dtype=np.float64)
        plate = loft.box((eye[0] - 0.32, 0.0, eye[2] + 0.12), (0.012, 0.22, 0.26))
        a.add(a.skin(Skin("head_armour", "interior_dark", plate, (0.3, 0.3))), 0, 16, 4)
    panel_h = min(depth, 0.32)
    return {"panel_x": x - 0.021, "panel_top": top, "panel_half_width": inner, "panel_depth": depth,
            "instruments_half_width": hw, "instruments_top": top + 0.03, "instruments_height": panel_h,
            "eye": np.asarray(ck.eye, dtype=np.float64), "sight": sight}


def pilot(a: Assembly, visual, part: int):
    ck = visual.cockpit
    if ck is None:
        return
    eye = np.asarray(ck.eye, dtype=np.float64)
    head = eye + np.array([-0.07, 0.0, 0.03])
    fn = loft.revolution(head[0] + 0.11, head[0] - 0.11, lambda t: 0.11 * np.sqrt(np.clip(1 - (2 * t - 1) ** 2, 0, 1)),
                         centre=(head[1], head[2]))
    a.add(a.skin(Skin("pilot_head", "pilot", fn, (0.2, 0.4))), part, 6, 10)
    body = loft.box(head + np.array([-0.05, 0.0, 0.32]), (0.12, 0.21, 0.16))
    a.add(a.skin(Skin("pilot_body", "pilot", body, (0.3, 0.3))), part, 16, 4)
