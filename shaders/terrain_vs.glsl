#version 330
#include "common.glsl"
#include "terrain_paint.glsl"
uniform mat4 m_proj;
uniform mat4 m_view;
uniform sampler2D u_height;     // R32F, x = column (east), y = row (north)
uniform sampler2D u_normal;     // RGBA8: NED normal * 0.5 + 0.5, a = forest density
uniform vec3 u_grid;            // origin north, origin east, spacing (m)
uniform vec3 u_cam_ned;
uniform mat4 u_shadow_mat;
uniform float u_water_m;
in vec3 in_grid;                // i (north), j (east), 1 on the skirt
in vec4 in_node;                // per instance: first row, first column, step (samples), skirt depth (m)
in float in_edge;               // a skirt's instance: the node's edge it hangs from (0 for the grid)
out vec3 v_rel;
out vec2 v_ne;
out float v_h;
out vec3 v_normal;
out float v_forest;
out vec4 v_fog;   // haze colour, amount
out vec4 v_shadow;
out vec4 v_mix;     // the land tint without the forest (terrain_paint.glsl land_tint): rgb added, a the fields' weight
out vec2 v_aux;     // lowland (fields) weight, slope
out vec4 v_water;   // rgb: the water's colour (the sky reflected), a: 1 on water
void main() {
    vec2 rc = in_node.xy + node_cell(in_grid.xy, in_edge) * in_node.z;
    ivec2 size = textureSize(u_height, 0);
    ivec2 t = clamp(ivec2(int(rc.y), int(rc.x)), ivec2(0), size - 1);
    float h = texelFetch(u_height, t, 0).r;
    vec4 nt = texelFetch(u_normal, t, 0);
    v_normal = nt.xyz * 2.0 - 1.0;
    v_forest = nt.a;
    vec2 ne = u_grid.xy + rc * u_grid.z;
    vec3 ned = vec3(ne, -h + in_grid.z * in_node.w);
    v_rel = ned - u_cam_ned;
    v_ne = ne;
    v_h = h;
    float dist = length(v_rel);
    float f = 1.0 - exp(-dist * u_fog_density);
    f *= 1.0 - 0.35 * clamp(v_rel.z / (dist + 1.0), 0.0, 1.0);
    v_fog = vec4(haze_color(v_rel / max(dist, 1e-3)), clamp(f, 0.0, 1.0));
    v_shadow = u_shadow_mat * vec4(v_rel, 1.0);
    // what varies slowly, per vertex: the tints and the slope (software GL pays per pixel)
    vec3 n = normalize(v_normal);
    float slope = sqrt(max(1.0 - n.z * n.z, 0.0));
    v_mix = land_tint(0.0, slope, h, u_water_m);     // the forest: per pixel (terrain_fs.glsl)
    v_aux = vec2(lowland_weight(h), slope);
#if WATER
    v_water = h <= u_water_m + 0.05 ? vec4(water_color(v_rel / max(dist, 1e-3)), 1.0) : vec4(0.0);
#else
    v_water = vec4(0.0);
#endif
    gl_Position = m_proj * m_view * vec4(v_rel, 1.0);
}
