#version 330
#include "common.glsl"
in vec4 v_color;
in vec3 v_rel;
out vec4 f_color;
void main() {
    // self-luminous: only distance haze dims them (half the scene's fog: a burning tracer
    // carries further through haze than a lit surface)
    float dist = length(v_rel);
    float f = 1.0 - exp(-dist * u_fog_density * 0.5);
    f_color = vec4(mix(v_color.rgb, haze_color(v_rel / max(dist, 1e-3)), clamp(f, 0.0, 1.0)), v_color.a);
}
