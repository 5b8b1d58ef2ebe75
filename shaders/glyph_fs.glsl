#version 330
uniform sampler2D u_glyphs;     // pyglet's glyph atlas: the glyph's coverage in alpha
in vec2 v_uv;
in vec4 v_color;
out vec4 f_color;
void main() { f_color = vec4(v_color.rgb, v_color.a * texture(u_glyphs, v_uv).a); }
