#version 330
#include "common.glsl"
uniform sampler2D u_tex;
in vec2 v_uv;
in vec3 v_rel;
out vec4 f_color;
void main() {
    float a = texture(u_tex, v_uv).r;
    if (a < 0.02) discard;
    vec3 c = vec3(0.9) * (u_sun_color * max(-u_sun_ned.z, 0.0) + u_ambient * 0.45);
    f_color = vec4(apply_fog(c, v_rel), a);
}
