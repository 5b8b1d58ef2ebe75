#version 330
// A road, the railway or the river lying on the terrain (render/ribbons.py). Positions are
// world NED; the eye subtracted here. The depth is that of the point pulled toward the eye by
// a fraction of its distance (the terrain's level of detail can be a few metres off far away),
// the screen position unchanged. Narrower than a pixel: widened to one, and fainter.
uniform mat4 m_proj;
uniform mat4 m_view;
uniform vec3 u_eye;
uniform float u_pixel_rad;      // the angle one pixel subtends
uniform mat4 u_shadow_mat;
in vec3 in_centre;              // the line's point, world NED
in vec2 in_side;                // the way to its right (north, east)
in float in_dz;                 // this edge's depth off the centre's (the ground's cross slope)
in float in_across;             // -1 left edge, +1 right edge
in float in_along;              // m from the line's start
in float in_half;               // half width, m
in float in_kind;               // 0 river, 1 rail, 2 main road, 3 lane
out vec3 v_rel;
out vec2 v_uv;                  // across (-1..1), along (m)
out float v_kind;
out float v_alpha;
out float v_half;
out vec4 v_shadow;
void main() {
    vec3 c = in_centre - u_eye;
    float dist = length(c);
    float px = dist * u_pixel_rad;                       // metres a pixel covers there
    float half_w = max(in_half, 0.7 * px);
    v_alpha = clamp(in_half / half_w, 0.0, 1.0);
    vec3 rel = c + vec3(in_side * (in_across * half_w), in_dz * (in_half / half_w));
    v_rel = rel;
    v_uv = vec2(in_across, in_along);
    v_kind = in_kind;
    v_half = in_half;
    v_shadow = u_shadow_mat * vec4(rel, 1.0);
    vec4 clip = m_proj * m_view * vec4(rel, 1.0);
    float k = clamp(0.004 + 1.5 / max(dist, 1.0), 0.0, 0.5);
    vec4 pulled = m_proj * m_view * vec4(rel * (1.0 - k), 1.0);
    gl_Position = vec4(clip.xy, pulled.z / pulled.w * clip.w, clip.w);
}
