#version 330
#include "common.glsl"
in vec4 v_dir;
out vec4 f_color;
void main() {
    vec3 dir = normalize(v_dir.xyz / v_dir.w);
    vec3 c = sky_color(dir);
    // a soft cloud band of haze just above the horizon
    float up = -dir.z;
    c = mix(c, u_sky_horizon * 1.04, 0.25 * exp(-abs(up - 0.03) * 30.0));
    f_color = vec4(c, 1.0);
}
