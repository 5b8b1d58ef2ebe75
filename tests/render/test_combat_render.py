"""The combat drawn for real (offscreen Mesa EGL): the opponent, tracers, the HUD line."""
import numpy as np
import pytest

from tests.render.test_screenshots import gl  # noqa: F401  (the offscreen GL fixture)

SIZE = (960, 540)



def _tracer_px(img):
    """Pixels of the tracer colour (a warm yellow-orange, brighter than anything orange in
    the generated aircraft's paint)."""
    p = img.astype(int)
    return (p[..., 0] > 200) & (p[..., 1] > 150) & (p[..., 2] < 0.6 * p[..., 1])


def _render_combat(ctx, frames, fire, view="chase", path=None, quality="low"):
    from flightsim.app.game import Game
    from flightsim.render.png import read_pixels, write_png
    from flightsim.world.assembly import World
    world = World(None, "fighter_combat")
    game = Game(ctx, world, view, quality)
    if fire:
        world.mailbox.post(world.initial_inputs.replace(fire=1.0))
    fbo = ctx.simple_framebuffer(SIZE)            # larger than the test window: tracers are thin
    fbo.viewport = (0, 0, *SIZE)
    t = world.buffer.read()[1].wall_s
    for _ in range(frames):
        t += 1 / 60
        while world.buffer.read()[1].wall_s + 0.02 <= t:
            world.physics.tick(world.buffer.read()[1].wall_s + 0.02)
        game.draw(fbo, t, 1 / 60)
    ctx.finish()
    img = read_pixels(ctx, fbo)
    if path:
        write_png(path, img)
    return img, game, world


def test_opponent_and_tracers_are_drawn(gl, tmp_path):  # noqa: F811
    img, game, world = _render_combat(gl, 60, fire=True, path=tmp_path / "combat_fire.png")
    cr = game.renderer.combat
    assert cr.opponent_drawn and cr.drawn_tracers > 3
    f = world.combat.frame
    assert f.player_ammo < 1880
    # bright tracer streaks in the picture, none when holding fire
    lit = _tracer_px(img[40:, :]).sum()
    img2, game2, _ = _render_combat(gl, 60, fire=False)
    assert game2.renderer.combat.drawn_tracers == 0
    assert lit >= 5 and _tracer_px(img2[40:, :]).sum() == 0
    # the HUD line carries the ammunition count and the bandit's range
    from flightsim.render.combat_draw import hud_text
    assert "AMMO" in hud_text(f) and "BANDIT" in hud_text(f)
