#version 330
uniform mat4 m_proj;
uniform mat4 m_view;
in vec3 in_pos;                 // NED relative to the eye
in vec2 in_uv;                  // along the plume 0 (the nozzle) .. 1, across -1..1
in float in_heat;               // the afterburner 0..1
out vec2 v_uv;
out float v_heat;
void main() {
    v_uv = in_uv;
    v_heat = in_heat;
    gl_Position = m_proj * m_view * vec4(in_pos, 1.0);
}
