#version 330
uniform mat4 m_proj;
uniform mat4 m_view;
uniform mat4 m_model;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
out vec3 v_rel;
out vec3 v_normal;
out vec2 v_uv;
void main() {
    vec4 p = m_model * vec4(in_position, 1.0);
    v_rel = p.xyz;
    v_normal = mat3(m_model) * in_normal;
    v_uv = in_uv;
    gl_Position = m_proj * m_view * p;
}
