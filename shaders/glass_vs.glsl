#version 330
uniform mat4 m_proj;
uniform mat4 m_view;
uniform mat4 m_model;
uniform mat4 u_parts[56];
in vec3 in_position;
in vec3 in_normal;
in float in_part;
out vec3 v_rel;
out vec3 v_normal;
void main() {
    mat4 part = u_parts[int(in_part)];
    vec4 p = m_model * part * vec4(in_position, 1.0);
    v_rel = p.xyz;
    v_normal = mat3(m_model) * mat3(part) * in_normal;
    gl_Position = m_proj * m_view * p;
}
