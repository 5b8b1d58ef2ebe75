#version 330
#include "common.glsl"
// An aircraft's exterior: body-axis vertices moved by their part's matrix (control surfaces,
// slats, gear legs, the propeller), painted from the livery's atlas.
uniform mat4 m_proj;
uniform mat4 m_view;
uniform mat4 m_model;           // NED relative to the camera <- body axes
uniform mat4 u_parts[56];       // per-part transform in body axes (render/model/parts.py)
uniform mat4 u_shadow_mat;      // NED relative to the camera -> the sun's shadow map (0..1)
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
in float in_part;
in float in_inside;             // 1: seen from inside, the interior's paint (the cockpit's walls)
out vec3 v_rel;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_shadow;
out float v_inside;
out vec4 v_fog;
void main() {
    v_inside = in_inside;
    mat4 part = u_parts[int(in_part)];
    vec4 p = m_model * part * vec4(in_position, 1.0);
    v_rel = p.xyz;
    v_normal = mat3(m_model) * mat3(part) * in_normal;
    v_uv = in_uv;
    v_shadow = u_shadow_mat * vec4(p.xyz, 1.0);
    float dist = length(p.xyz);
    float f = 1.0 - exp(-dist * u_fog_density);
    f *= 1.0 - 0.35 * clamp(p.z / (dist + 1.0), 0.0, 1.0);
    v_fog = vec4(haze_color(p.xyz / max(dist, 1e-3)), clamp(f, 0.0, 1.0));
    gl_Position = m_proj * m_view * p;
}
