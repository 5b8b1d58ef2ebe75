#version 330
uniform vec2 u_screen;          // pixels
in vec2 in_pos;                 // pixels, origin bottom left
in vec2 in_uv;                  // in the font's glyph atlas
in vec4 in_color;
out vec2 v_uv;
out vec4 v_color;
void main() {
    v_uv = in_uv;
    v_color = in_color;
    gl_Position = vec4(in_pos / u_screen * 2.0 - 1.0, 0.0, 1.0);
}
