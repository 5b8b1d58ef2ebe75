#version 330
uniform mat4 u_ned_from_clip;   // inverse of (projection * view rotation)
out vec4 v_dir;                 // NED direction (homogeneous): linear over the screen, so per vertex
void main() {
    vec2 p = vec2(float((gl_VertexID << 1) & 2), float(gl_VertexID & 2)) * 2.0 - 1.0;
    v_dir = u_ned_from_clip * vec4(p, 1.0, 1.0);
    gl_Position = vec4(p, 1.0, 1.0);   // exactly the far plane: with "<=" only where nothing was drawn
    // (at 0.9999 it hid terrain beyond 20000 near-plane distances: 2 km from the cockpit)
}
