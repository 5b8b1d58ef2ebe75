"""An aircraft's exterior and paint from its visual.toml and liveries.toml (docs/visual_format.md).

Numpy only, no GL: skin.py (parametric skins, meshes, the atlas), loft.py (bodies, canopy,
revolutions, tubes, boxes), surfaces.py (wings and tails through their planforms, cut where
the physics moves them), parts.py (the moving parts' matrices), exterior.py (the whole
aircraft), paint.py + insignia.py + font.py (the livery into the atlas), looks.py (made once,
kept). render/aircraft_draw.py draws a look.
"""
