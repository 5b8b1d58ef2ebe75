#version 330
// A painted marking lying on the ground (the runway's numbers): world NED positions, the eye
// subtracted here, its depth pulled a little toward the eye (as the ribbons', render/ribbons.py).
uniform mat4 m_proj;
uniform mat4 m_view;
uniform vec3 u_eye;
in vec3 in_pos;
in vec2 in_uv;
out vec2 v_uv;
out vec3 v_rel;
void main() {
    vec3 rel = in_pos - u_eye;
    v_uv = in_uv;
    v_rel = rel;
    float dist = length(rel);
    vec4 clip = m_proj * m_view * vec4(rel, 1.0);
    float k = clamp(0.004 + 1.0 / max(dist, 1.0), 0.0, 0.5);
    vec4 pulled = m_proj * m_view * vec4(rel * (1.0 - k), 1.0);
    gl_Position = vec4(clip.xy, pulled.z / pulled.w * clip.w, clip.w);
}
