"""Render the gallery (docs/gallery/): the same pictures every time, for the README and for
looking at what a player sees.

    python scripts/gallery.py                 all of them (high preset, 960x540; a few minutes on a
                                              2-core machine's software GL)
    python scripts/gallery.py chase_p51d ...  those named
    python scripts/gallery.py --list

Each aircraft in chase and orbit views over the airfield and from its cockpit, each WW2
fighter in its liveries, the landscape from 300 m and from 3,000 m, the town, the airfield
from the tower, a dogfight with its tracers, the F-15C in afterburner. The game's own
drawing: its flow, its Game, its renderer, at the high preset, on a simulated clock.
"""
from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OUT = ROOT / "docs" / "gallery"
W, H = 960, 540
AIRCRAFT = ("spitfire", "bf109", "p51d", "f15c", "astir")
FIGHTERS = ("spitfire", "bf109", "p51d", "f15c")


def _context():
    from flightsim.app.display import headless_context
    return headless_context(W, H)


class Shot:
    """One world flown for a while on a simulated clock, then drawn (or drawn from a camera of
    the picture's own)."""

    def __init__(self, ctx, scenario, aircraft=None, view="chase", quality="high", livery=None, controls=None):
        from flightsim.app.flow import GameFlow
        from flightsim.app.screens import Screens
        from flightsim.app.settings import Settings
        settings = Settings()
        if livery is not None and aircraft is not None:
            settings.liveries = {aircraft: livery}
        self.ctx = ctx
        self.flow = GameFlow(ctx, settings, view=view, quality=quality, live=False, save=False)
        self.flow.start(scenario, aircraft)
        self.screens = Screens(self.flow)
        self.world, self.game = self.flow.world, self.flow.game
        if controls:
            self.world.mailbox.post(self.world.initial_inputs.replace(**controls))
        self.t = self.world.physics.buffer.read()[1].wall_s
        self.tick = self.t

    def fly(self, seconds, draw_every=10, controls=None):
        from flightsim.runtime.handoff import DT
        n = max(int(seconds * 60), 1)
        for i in range(n):
            self.t += 1 / 60
            while self.tick + DT <= self.t:
                self.tick += DT
                if controls is not None:
                    self.world.mailbox.post(controls(self))
                self.world.physics.tick(self.tick)
            self.flow.update(self.t)
            if i % draw_every == 0 or i >= n - 45:         # the effects and the propeller live on frames
                self.screens.draw(self.ctx.screen, self.t, 1 / 60)
        return self

    def picture(self, camera=None) -> np.ndarray:
        from flightsim.render.png import read_pixels
        from flightsim.runtime.handoff import pose_at
        fbo = self.ctx.screen
        if camera is None:
            self.screens.draw(fbo, self.t, 1 / 60)
        else:
            pose = pose_at(self.world.buffer, self.t)
            view = camera(pose, self.world)
            for _ in range(2):
                self.game.renderer.render(fbo, view, pose, cockpit=False)
        self.ctx.finish()
        return read_pixels(self.ctx, fbo)

    def close(self):
        self.flow.close()

    def take(self, camera=None) -> np.ndarray:
        """The picture, and the world closed."""
        try:
            return self.picture(camera)
        finally:
            self.close()


def _view(eye, target, fov_deg=45.0, near=0.5):
    from flightsim.render.camera import look_at
    return look_at(np.asarray(eye, float), np.asarray(target, float), fovy_rad=math.radians(fov_deg), near_m=near)


def orbit_camera(yaw_deg, pitch_deg, dist_m, fov=40.0):
    def cam(pose, world):
        from flightsim.runtime.handoff import dcm
        R = dcm(pose.quat_wxyz)
        hdg = math.atan2(R[1, 0], R[0, 0]) + math.radians(yaw_deg)
        p = math.radians(pitch_deg)
        pos = np.asarray(pose.position_ned_m)
        eye = pos - np.array([math.cos(p) * math.cos(hdg), math.cos(p) * math.sin(hdg), math.sin(p)]) * dist_m
        return _view(eye, pos, fov, 0.3)
    return cam


def ground_camera(n, e, agl, hdg_deg, pitch_deg, fov=55.0):
    def cam(pose, world):
        from flightsim.render.camera import View
        g = world.terrain.height_at(n, e)
        h, p = math.radians(hdg_deg), math.radians(pitch_deg)
        f = np.array([math.cos(p) * math.cos(h), math.cos(p) * math.sin(h), -math.sin(p)])
        r = np.array([-math.sin(h), math.cos(h), 0.0])
        return View(np.array([n, e, -(g + agl)]), f, r, np.cross(f, r), math.radians(fov), 1.0)
    return cam


# ---------------------------------------------------------------------------- the pictures
def pictures():
    out = {}
    for a in AIRCRAFT:
        out[f"chase_{a}"] = lambda ctx, a=a: Shot(ctx, "airfield", a, "chase").fly(1.0).take()
        out[f"orbit_{a}"] = lambda ctx, a=a: Shot(ctx, "airfield", a, "chase").fly(1.0).take(
            orbit_camera(150.0, 12.0, {"f15c": 30.0, "astir": 24.0}.get(a, 17.0)))
        out[f"cockpit_{a}"] = lambda ctx, a=a: Shot(ctx, "airfield", a, "cockpit").fly(1.0).take()
    for a in FIGHTERS:
        out[f"liveries_{a}"] = lambda ctx, a=a: liveries(ctx, a)
    out["landscape_300m"] = lambda ctx: Shot(ctx, "airfield", "astir").fly(0.2).take(
        ground_camera(2600.0, 3700.0, 300.0, 40.0, -14.0))
    out["landscape_3000m"] = lambda ctx: Shot(ctx, "airfield", "astir").fly(0.2).take(
        ground_camera(-6000.0, -2500.0, 3000.0, 40.0, -22.0, 60.0))
    out["town"] = lambda ctx: Shot(ctx, "airfield", "astir").fly(0.2).take(
        ground_camera(3650.0, 4350.0, 140.0, 45.0, -12.0, 50.0))
    out["airfield_tower"] = lambda ctx: Shot(ctx, "fighter_takeoff", "spitfire", "tower").fly(4.0).take()
    out["thermal_clouds"] = lambda ctx: Shot(ctx, "thermal", "astir", "chase").fly(2.0).take()
    out["dogfight"] = dogfight
    out["afterburner_f15c"] = lambda ctx: Shot(ctx, "f15c_air", "f15c", controls={"throttle": 1.0}).fly(
        6.0).take(orbit_camera(28.0, 5.0, 30.0))
    return out


def liveries(ctx, aircraft):
    """The aircraft in each of its schemes side by side, seen from the front quarter."""
    from flightsim.aircraft_data.compile import compile_aircraft
    from flightsim.aircraft_data.loader import load_aircraft
    from flightsim.render.model import looks
    ids = [lv.id for lv in looks.liveries_of(compile_aircraft(load_aircraft(aircraft)))]
    tiles = []
    for lid in ids:
        s = Shot(ctx, "airfield", aircraft, "chase", livery=lid).fly(0.5)
        img = s.take(orbit_camera(125.0, 18.0, {"f15c": 28.0}.get(aircraft, 15.0)))
        tiles.append(img[H // 8: H - H // 8, W // 8: W - W // 8])
    return np.hstack(tiles)


def dogfight(ctx):
    """The Spitfire and the Bf 109 head-on, 850 m apart at the start: two seconds later, 300 m
    apart, the Spitfire's guns firing; seen from behind and above the Spitfire."""
    s = Shot(ctx, "spitfire_vs_bf109", "spitfire", "chase")
    t0 = s.t
    s.fly(2.1, controls=lambda shot: shot.world.initial_inputs.replace(fire=1.0 if shot.t - t0 > 0.9 else 0.0))

    def cam(pose, world):
        c = s.game.renderer.combat
        me = np.asarray(pose.position_ned_m)
        o = c.opponent_view
        them = np.asarray(o.position_ned_m) if o is not None else me + np.array([200.0, 0.0, 0.0])
        d = (them - me) / max(np.linalg.norm(them - me), 1.0)
        side = np.cross(d, [0.0, 0.0, 1.0])
        eye = me - d * 18.0 + side * 6.0 + np.array([0.0, 0.0, -5.0])
        return _view(eye, 0.6 * me + 0.4 * them, 50.0, 0.3)
    return s.take(cam)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    pics = pictures()
    if args.list:
        print("\n".join(pics))
        return 0
    names = args.names or list(pics)
    unknown = [n for n in names if n not in pics]
    if unknown:
        ap.error(f"no picture {', '.join(unknown)} (known: {', '.join(pics)})")
    from flightsim.render.png import write_png
    OUT.mkdir(parents=True, exist_ok=True)
    win, ctx = _context()
    for name in names:
        img = pics[name](ctx)
        path = OUT / f"{name}.png"
        write_png(path, np.ascontiguousarray(img))
        print(f"wrote {path.relative_to(ROOT)} ({img.shape[1]}x{img.shape[0]})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
