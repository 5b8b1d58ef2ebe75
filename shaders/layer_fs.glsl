#version 330
// premultiplied colour: blend with (ONE, ONE_MINUS_SRC_ALPHA)
uniform sampler2D u_layer;
in vec2 v_uv;
out vec4 f_color;
void main() { f_color = texture(u_layer, v_uv); }
