#version 330
#include "common.glsl"
// A puff of smoke, dust or vapour (soft and round, lit by the sun and the sky, hazed with
// distance), a spark or a flash (its own light: added), or a tumbling piece (hard, dark).
uniform float u_additive;
in vec2 v_uv;
in vec4 v_rgba;
in float v_soft;
in vec3 v_rel;
out vec4 f_color;
void main() {
    float r2 = dot(v_uv, v_uv);
    if (r2 > 1.0) discard;
    if (v_soft < 0.5) {                      // a piece of the aircraft: an irregular dark chunk
        if (abs(v_uv.x) + abs(v_uv.y) > 1.1) discard;
        f_color = vec4(apply_fog(v_rgba.rgb * (u_ambient * 0.6 + u_sun_color * 0.4), v_rel), v_rgba.a);
        return;
    }
    float a = v_rgba.a * (1.0 - smoothstep(0.2, 1.0, r2));
    vec3 c = v_rgba.rgb;
    if (u_additive < 0.5) {
        vec3 n = vec3(v_uv, -sqrt(max(1.0 - r2, 0.0)));
        c *= u_ambient * 0.7 + u_sun_color * (0.45 + 0.3 * clamp(-n.y, 0.0, 1.0));
        c = apply_fog(c, v_rel);
    } else {
        c *= 1.0 + 0.8 * (1.0 - r2);        // a hot core
    }
    f_color = vec4(c, a);
}
