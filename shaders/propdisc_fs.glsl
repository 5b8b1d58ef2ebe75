#version 330
#include "common.glsl"
// A propeller turning faster than the eye can follow: a faint disc, darker where the
// blades are wide, the tips' colour in a ring at the rim.
uniform float u_radius;
uniform float u_strength;
uniform vec3 u_blade;
uniform vec3 u_tip;
uniform float u_tip_m;
in vec3 v_rel;
in vec3 v_normal;
in vec2 v_uv;
out vec4 f_color;
void main() {
    float r = v_uv.x * u_radius;
    float a = u_strength * (0.17 - 0.08 * v_uv.x);
    vec3 c = u_blade;
    if (r > u_radius - u_tip_m) { c = u_tip; a = u_strength * 0.3; }
    if (v_uv.x < 0.12) discard;
    vec3 lit = c * (u_sun_color * 0.6 + u_ambient * 0.6);
    f_color = vec4(apply_fog(lit, v_rel), a);
}
