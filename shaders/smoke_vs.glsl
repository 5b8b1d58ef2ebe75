#version 330
// Smoke, vapour and fire puffs (render/damage_fx.py): camera-facing quads built on the CPU,
// NED relative to the eye; in_uv runs -1..1 across each quad (the puff is the disc inside).
uniform mat4 m_proj;
uniform mat4 m_view;
in vec3 in_position;
in vec4 in_color;
in vec2 in_uv;
out vec4 v_color;
out vec3 v_rel;
out vec2 v_uv;
void main() {
    v_color = in_color;
    v_rel = in_position;
    v_uv = in_uv;
    gl_Position = m_proj * m_view * vec4(in_position, 1.0);
}
