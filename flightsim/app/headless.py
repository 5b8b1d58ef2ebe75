"""Screenshots with no display: the game's own flow and drawing in an offscreen GL context,
on a simulated clock, written to a PNG."""
from __future__ import annotations

from ..render.png import read_pixels, write_png
from ..runtime.handoff import DT
from .display import headless_context
from .flow import GameFlow
from .screens import Screens
from .settings import load_settings


def screenshot(args) -> int:
    """Render N frames offscreen on a simulated 60 fps clock (deterministic) and write a PNG of
    ``args.scenario`` (the command line resolved it); --menu draws the menu over it."""
    win, ctx = headless_context(args.width, args.height)
    settings = load_settings()
    flow = GameFlow(ctx, settings, view=args.view, quality=args.quality, live=False, save=False)
    flow.start(args.scenario, args.aircraft,
               menu=bool(getattr(args, "menu", False)))
    world, game = flow.world, flow.game
    screens = Screens(flow)                    # the app's states' drawing, with no input to read
    fbo = ctx.screen
    t0 = world.physics.buffer.read()[1].wall_s
    tick_wall = t0
    t = t0
    frame_dt = 1.0 / 60.0
    for _ in range(max(args.frames, 1)):
        t += frame_dt
        while tick_wall + DT <= t:
            tick_wall += DT
            if not world.physics.paused:
                world.physics.tick(tick_wall)
        flow.update(t)
        screens.draw(fbo, t, frame_dt)
    ctx.finish()
    img = read_pixels(ctx, fbo)
    if args.screenshot:
        write_png(args.screenshot, img)
        print(f"wrote {args.screenshot} ({args.width}x{args.height}, {args.frames} frames, {world.scenario.name}, "
              f"{game.renderer.quality}, {game.renderer.stats.triangles} triangles)")
    flow.close()
    try:
        win.close()
    except Exception:     # pyglet's headless context teardown can trip on a GL error flag: harmless here
        pass
    return 0
