#version 330
#define FRAGMENT_SHADER
#include "common.glsl"
#include "terrain_paint.glsl"
// Low preset terrain: the per-vertex tints of terrain_low_vs.glsl plus, per pixel, the fields
// and their hedges and the airfield (painted in place, as in terrain_fs.glsl). The aircraft's
// shadow is drawn on it flat (render/aircraft_draw.py: a sampled shadow map costs software GL
// a third of its frame here).
uniform float u_water_m;
in vec2 v_ne;
in vec4 v_mix;
in vec4 v_light;
in vec4 v_water;
in vec4 v_fog;
in vec3 v_rel;
out vec4 f_color;

void main() {
    float dist = length(v_rel);
    vec3 col = farmland(v_ne, v_light.a, dist) * v_mix.a + v_mix.rgb;
#if AIRFIELD
    col = paint_airfield(v_ne, col);
#endif
    col *= v_light.rgb;
#if WATER
    if (v_water.a > 0.5) col = v_water.rgb;
#endif
    f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
}
