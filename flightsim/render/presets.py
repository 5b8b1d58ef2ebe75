"""The render presets (low, medium, high): what each draws and how finely, and which one a
GL driver gets when the player leaves it to the game (auto: software GL gets low)."""
from __future__ import annotations

from dataclasses import dataclass

QUALITY = {
    #   grid: a terrain node's cells a side; split: the LOD's split factor; trees_m, max_trees: the trees'
    #   range and count; fog: density 1/m; scale: the 3D scene's resolution relative to the window (the HUD
    #   stays at full resolution, the scene stretched bilinearly); shadow_px, shadow_taps: the sun's shadow
    #   map and its filter (0: the aircraft's shadow laid flat on the ground); terrain_shadow: the ground
    #   samples that map; ground_detail: the fields' crop rows and the ground's texture close up;
    #   buildings_m: how far buildings are drawn; inside_glass: the canopy's glass drawn from the cockpit
    #   (a blended layer over the whole view); panel_px: the 3D cockpit's instrument texture; anisotropy:
    #   the aircraft's paint filtered at grazing angles (software GL: a quarter of the aircraft's cost)
    "low": dict(grid=8, split=1.5, trees_m=1400.0, max_trees=1200, fog=1.0 / 12000.0, tree_sides=5, scale=0.5,
                terrain_shader="terrain_low", draw_chunks=3, shadow_px=0, buildings_m=4500.0,
                inside_glass=False, panel_px=(640, 360)),
    "medium": dict(grid=16, split=1.5, trees_m=2500.0, max_trees=4000, fog=1.0 / 16000.0, tree_sides=6, scale=1.0,
                   shadow_px=512, shadow_taps=1, buildings_m=9000.0, ground_detail=0.0, inside_glass=False,
                   panel_px=(800, 450)),
    "high": dict(grid=16, split=3.0, trees_m=4500.0, max_trees=12000, fog=1.0 / 20000.0, tree_sides=8, scale=1.0,
                 shadow_px=4096, shadow_taps=9, buildings_m=20000.0, ground_detail=1.0, terrain_shadow=True,
                 anisotropy=4.0),
}
SOFTWARE_GL = ("llvmpipe", "softpipe", "swiftshader", "software", "swr")



def is_software_gl(ctx) -> bool:
    r = ctx.info.get("GL_RENDERER", "").lower()
    return any(s in r for s in SOFTWARE_GL)


def auto_quality(ctx) -> str:
    return "low" if is_software_gl(ctx) else "high"


def preset(ctx, quality: str) -> dict:
    """The preset a renderer draws with on this GL. Software GL gets no anisotropic filtering:
    llvmpipe's stalls for seconds to minutes on some frames (the Spitfire's cockpit at high: one
    frame of the aircraft took 142 s at 4x, 66 s at 2x, 35 ms without)."""
    q = dict(QUALITY[quality])
    if is_software_gl(ctx):
        q["anisotropy"] = 1.0
    return q


@dataclass
class FrameStats:
    terrain_nodes: int = 0
    terrain_triangles: int = 0
    skirts: int = 0                 # terrain skirts hung (an edge each)
    trees: int = 0
    triangles: int = 0
