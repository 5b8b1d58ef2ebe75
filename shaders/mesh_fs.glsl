#version 330
#include "common.glsl"
uniform float u_gloss;
in vec3 v_rel;
in vec3 v_normal;
in vec3 v_color;
out vec4 f_color;
void main() {
    vec3 n = normalize(v_normal);
    vec3 d = normalize(v_rel);
    if (dot(n, d) > 0.0) n = -n;      // thin slabs: light the side we see
    vec3 c = v_color * sun_light(n);
    vec3 h = normalize(u_sun_ned - d);
    c += vec3(1.0, 0.95, 0.85) * pow(max(dot(n, h), 0.0), 60.0) * u_gloss;
    f_color = vec4(apply_fog(c, v_rel), 1.0);
}
