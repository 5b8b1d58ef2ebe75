#version 330
#include "common.glsl"
uniform mat4 u_ned_from_clip;   // inverse of (projection * view rotation)
in vec2 v_ndc;
out vec4 f_color;
void main() {
    vec4 p = u_ned_from_clip * vec4(v_ndc, 1.0, 1.0);
    vec3 dir = normalize(p.xyz / p.w);
    vec3 c = sky_color(dir);
    // a soft cloud band of haze just above the horizon
    float up = -dir.z;
    c = mix(c, u_sky_horizon * 1.04, 0.25 * exp(-abs(up - 0.03) * 30.0));
    f_color = vec4(c, 1.0);
}
