#version 330
// Tracers and hit flashes: unlit, camera-facing quads built on the CPU, NED relative to the eye.
uniform mat4 m_proj;
uniform mat4 m_view;
in vec3 in_position;
in vec4 in_color;
out vec4 v_color;
out vec3 v_rel;
void main() {
    v_color = in_color;
    v_rel = in_position;
    gl_Position = m_proj * m_view * vec4(in_position, 1.0);
}
