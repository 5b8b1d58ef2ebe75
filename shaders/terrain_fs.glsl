#version 330
#include "common.glsl"
#include "terrain_paint.glsl"
// Terrain colour by height, slope, farmland patchwork and forest; water; the airfield
// painted in place (no decals, no z-fighting). Arithmetic only: texture sampling is the
// expensive part on software rasterisers, so normals and forest come per vertex.
uniform float u_water_m;
in vec3 v_rel;
in vec2 v_ne;
in float v_h;
in vec3 v_normal;
in float v_forest;
in vec4 v_fog;
out vec4 f_color;

void main() {
    float h = v_h;
    vec3 n = normalize(v_normal);
    float dist = length(v_rel);
    vec3 col;
    if (h <= u_water_m + 0.05) {
        vec3 d = v_rel / max(dist, 1e-3);
        vec3 r = reflect(d, vec3(0.0, 0.0, -1.0));
        col = water_color(d) + vec3(1.0, 0.9, 0.7) * pow(max(dot(r, u_sun_ned), 0.0), 200.0) * 1.5;
        f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
        return;
    }
    float slope = sqrt(max(1.0 - n.z * n.z, 0.0));
    vec4 tint = land_tint(v_forest, slope, h, u_water_m);
    col = paint_airfield(v_ne, farmland(v_ne, lowland_weight(h)) * tint.a + tint.rgb);
    if (dist < 1200.0) col *= 0.95 + 0.1 * hash(floor(v_ne * 0.5));              // close-up grain
    col *= sun_light(n);
    f_color = vec4(mix(col, v_fog.rgb, v_fog.a), 1.0);
}
