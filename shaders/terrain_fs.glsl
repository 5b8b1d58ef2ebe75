#version 330
#define FRAGMENT_SHADER
#include "common.glsl"
#include "shadow.glsl"
#include "terrain_paint.glsl"
// Terrain colour by height, slope, the fields (terrain_paint.glsl) and forest; water; the
// airfield painted in place (no decals, no z-fighting); close-up detail; the aircraft's shadow.
uniform float u_water_m;
uniform sampler2D u_normal;     // a: forest density (terrain_vs.glsl)
uniform vec3 u_grid;            // origin north, origin east, spacing (m)
// TERRAIN_SHADOW (a #define): the ground takes the aircraft's shadow from the map (high); else
// the renderer lays it flat (medium, low). GROUND_DETAIL: terrain_paint.glsl.
in vec3 v_rel;
in vec2 v_ne;
in float v_h;
in vec3 v_normal;
in float v_forest;
in vec4 v_fog;
in vec4 v_shadow;
in vec4 v_mix;
in vec2 v_aux;
in vec4 v_water;
out vec4 f_color;

void main() {
    float h = v_h;
    vec3 n = normalize(v_normal);
    float dist = length(v_rel);
    vec3 col;
#if TERRAIN_SHADOW
    float lit = sun_shadow(v_shadow, dot(n, u_sun_ned));
#else
    float lit = 1.0;
#endif
#if WATER
    if (v_water.a > 0.5) {            // water: its colour per vertex, the sun's glint on small waves here
        vec3 d = v_rel / max(dist, 1e-3);
#if GROUND_DETAIL
        vec2 wv = noise_at(v_ne, 100.0).ba - 0.5;
#else
        vec2 wv = vec2(0.0);
#endif
        vec3 r = reflect(d, normalize(vec3(wv * 0.06 * clamp(1.0 - dist / 4000.0, 0.2, 1.0), -1.0)));
        col = v_water.rgb + vec3(1.0, 0.9, 0.7) * pow(max(dot(r, u_sun_ned), 0.0), 180.0) * 1.5 * lit;
        col *= 0.75 + 0.25 * lit;
        f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
        return;
    }
#endif
    float forest = v_forest;
#if GROUND_DETAIL
    // the forest's edge per pixel: its density map sampled between the mesh's vertices (a far
    // mesh's coarse steps would cut it into blocks) and frayed by noise into an irregular edge
    vec2 uv = (vec2(v_ne.y - u_grid.y, v_ne.x - u_grid.x) / u_grid.z + 0.5) / vec2(textureSize(u_normal, 0));
    uv = 1.0 - abs(mod(uv, 2.0) - 1.0);       // off the map's edge, its forests mirrored (not smeared)
    forest = texture(u_normal, uv).a + 0.22 * (noise_at(v_ne, 2300.0).g - 0.5);
#endif
    vec3 patch = farmland(v_ne, v_aux.x, dist);
    col = patch * v_mix.a + v_mix.rgb + forest_weight(forest) * v_mix.a * (FOREST_COLOUR - patch);
#if AIRFIELD
    col = paint_airfield(v_ne, col);
#endif
    col = ground_detail(col, v_ne, forest, v_aux.y, dist);
    float diff = max(dot(n, u_sun_ned), 0.0);
    float sky = 0.5 + 0.5 * (-n.z);
    col *= u_sun_color * diff * lit + u_ambient * (0.25 + 0.2 * sky);
    f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
}
