#version 330
uniform mat4 m_proj;
uniform mat4 m_view;
in vec3 in_pos;                 // NED relative to the eye (the quad's corner, already facing the camera)
in vec2 in_uv;                  // -1..1 across the quad
in vec4 in_rgba;
in float in_soft;               // 1 a soft round puff, 0 a hard-edged chunk (debris)
out vec2 v_uv;
out vec4 v_rgba;
out float v_soft;
out vec3 v_rel;
void main() {
    v_uv = in_uv;
    v_rgba = in_rgba;
    v_soft = in_soft;
    v_rel = in_pos;
    gl_Position = m_proj * m_view * vec4(in_pos, 1.0);
}
