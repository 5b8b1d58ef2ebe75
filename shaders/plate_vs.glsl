#version 330
// A flat plate in the aircraft's model space (the cockpit's panel face, the propeller disc):
// its position relative to the eye, normal, uv and sun-shadow coordinates for the fragment shader.
uniform mat4 m_proj;
uniform mat4 m_view;
uniform mat4 m_model;
uniform mat4 u_shadow_mat;
in vec3 in_position;
in vec3 in_normal;
in vec2 in_uv;
out vec3 v_rel;
out vec3 v_normal;
out vec2 v_uv;
out vec4 v_shadow;
void main() {
    vec4 p = m_model * vec4(in_position, 1.0);
    v_rel = p.xyz;
    v_normal = mat3(m_model) * in_normal;
    v_uv = in_uv;
    v_shadow = u_shadow_mat * vec4(p.xyz, 1.0);
    gl_Position = m_proj * m_view * p;
}
