#version 330
// The aircraft's skin flattened along the sun's rays onto the level ground below it.
uniform mat4 m_proj;
uniform mat4 m_view;
uniform mat4 m_model;
uniform mat4 u_parts[56];
uniform vec3 u_sun_ned;
uniform float u_ground_z;       // the ground's NED z relative to the eye
in vec3 in_position;
in float in_part;
void main() {
    mat4 part = u_parts[int(in_part)];
    vec4 p = m_model * part * vec4(in_position, 1.0);
    float t = (u_ground_z - p.z) / max(-u_sun_ned.z, 0.05);     // down the ray to the ground
    vec3 g = p.xyz - u_sun_ned * t;
    g.z = u_ground_z;
    vec4 clip = m_proj * m_view * vec4(g, 1.0);
    float dist = length(g);
    vec4 pulled = m_proj * m_view * vec4(g * (1.0 - clamp(0.002 + 0.3 / max(dist, 1.0), 0.0, 0.5)), 1.0);
    gl_Position = vec4(clip.xy, pulled.z / pulled.w * clip.w, clip.w);
}
