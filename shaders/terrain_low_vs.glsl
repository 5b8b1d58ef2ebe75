#version 330
#include "common.glsl"
#include "terrain_paint.glsl"
// Low preset (software GL): everything that varies slowly is worked out per vertex --
// lighting, haze, forest / rock / high ground / shore tints, water -- so the fragment
// shader only adds the field patchwork and the airfield (see terrain_low_fs.glsl).
uniform mat4 m_proj;
uniform mat4 m_view;
uniform sampler2D u_height;     // R32F, x = column (east), y = row (north)
uniform sampler2D u_normal;     // RGBA8: NED normal * 0.5 + 0.5, a = forest density
uniform vec3 u_grid;            // origin north, origin east, spacing (m)
uniform vec3 u_cam_ned;
uniform float u_water_m;
in vec3 in_grid;                // i (north), j (east), 1 on the skirt
in vec4 in_node;                // per instance: first row, first column, step (samples), skirt depth (m)
in float in_edge;               // a skirt's instance: the node's edge it hangs from (0 for the grid)
out vec2 v_ne;
out vec4 v_mix;     // rgb: tint added after the field colour, a: weight of the field colour
out vec4 v_light;   // rgb: sun + sky light, a: lowland (fields) weight
out vec4 v_water;   // rgb: water colour (lit, reflected sky), a: 1 on water
out vec4 v_fog;     // haze colour, amount
out vec3 v_rel;
void main() {
    vec2 rc = in_node.xy + node_cell(in_grid.xy, in_edge) * in_node.z;
    ivec2 size = textureSize(u_height, 0);
    ivec2 t = clamp(ivec2(int(rc.y), int(rc.x)), ivec2(0), size - 1);
    float h = texelFetch(u_height, t, 0).r;
    vec4 nt = texelFetch(u_normal, t, 0);
    vec3 n = normalize(nt.xyz * 2.0 - 1.0);
    vec2 ne = u_grid.xy + rc * u_grid.z;
    vec3 rel = vec3(ne, -h + in_grid.z * in_node.w) - u_cam_ned;
    v_ne = ne;
    float dist = length(rel);
    vec3 d = rel / max(dist, 1e-3);
    // land: col = a * patchwork + b (terrain_paint.glsl), the patchwork added per pixel
    float slope = sqrt(max(1.0 - n.z * n.z, 0.0));
    v_mix = land_tint(nt.a, slope, h, u_water_m);
    v_light = vec4(sun_light(n), lowland_weight(h));
    // water
    v_water = vec4(0.0);
#if WATER
    if (h <= u_water_m + 0.05) {
        v_water = vec4(water_color(d), 1.0);
    }
#endif
    float f = 1.0 - exp(-dist * u_fog_density);
    f *= 1.0 - 0.35 * clamp(rel.z / (dist + 1.0), 0.0, 1.0);
    v_fog = vec4(haze_color(d), clamp(f, 0.0, 1.0));
    v_rel = rel;
    gl_Position = m_proj * m_view * vec4(rel, 1.0);
}
