#version 330
#include "common.glsl"
in vec4 v_color;
in vec3 v_rel;
in vec2 v_uv;
out vec4 f_color;
void main() {
    // a soft round puff: opaque in the middle, fading to nothing at the rim
    float r = length(v_uv);
    if (r > 1.0) discard;
    float a = v_color.a * (1.0 - smoothstep(0.25, 1.0, r));
    // lit a little by the sun and the sky, hazed with distance like the scenery
    vec3 c = v_color.rgb * (0.55 * u_ambient + 0.6 * u_sun_color);
    if (v_color.r > 0.9 && v_color.g < 0.8) c = v_color.rgb;     // flame: self-luminous
    float dist = length(v_rel);
    float f = 1.0 - exp(-dist * u_fog_density);
    f_color = vec4(mix(c, haze_color(v_rel / max(dist, 1e-3)), clamp(f, 0.0, 1.0)), a);
}
