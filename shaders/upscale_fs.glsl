#version 330
// The scene rendered at a lower resolution, stretched to the window (bilinear).
uniform sampler2D u_scene;
in vec2 v_uv;
out vec4 f_color;
void main() { f_color = vec4(textureLod(u_scene, v_uv, 0.0).rgb, 1.0); }
