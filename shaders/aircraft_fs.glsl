#version 330
#include "common.glsl"
#include "shadow.glsl"
// Paint and metal under the sun and the sky. The atlas's alpha is the finish: below 0.5
// paint (0 matte .. 0.5 glossy), from 0.5 metal (dull .. polished). Metal takes its colour
// from what it reflects (the sky above, the ground below, the sun's highlight); paint is
// diffuse with a sheen that grows at grazing angles. The inside of the fuselage's skin (a
// cockpit wall seen from the seat) has the interior's paint.
uniform sampler2D u_paint;
uniform vec3 u_interior;
uniform vec3 u_ground;          // the ground's colour below, for what metal reflects
in vec3 v_rel;
in vec3 v_normal;
in vec2 v_uv;
in vec4 v_shadow;
in float v_inside;
in vec4 v_fog;                  // haze colour, amount (per vertex: an aircraft is small beside the haze's scale)
out vec4 f_color;

vec3 environment(vec3 r) {
    if (r.z <= 0.0) return sky_color(r);
    return mix(u_sky_horizon * 0.8, u_ground, clamp(r.z * 3.0, 0.0, 1.0));
}

void main() {
    vec4 t = texture(u_paint, v_uv);
    vec3 n = normalize(v_normal);
    vec3 d = normalize(v_rel);
    vec3 base = t.rgb;
    float fin = t.a;
    if (!gl_FrontFacing) {          // the far side of a skin: lit as its near side; a cockpit wall in its paint
        n = -n;
        if (v_inside > 0.5) { base = u_interior; fin = 0.08; }
    }
    float lit = sun_shadow(v_shadow, dot(n, u_sun_ned));
    float diff = max(dot(n, u_sun_ned), 0.0) * lit;
    float sky = 0.5 + 0.5 * (-n.z);
    // sky light from above, the sunlit ground's light from below
    vec3 ambient = u_ambient * (0.42 + 0.38 * sky) + u_ground * (u_sun_color.g * 0.55) * (1.0 - sky);
    vec3 r = reflect(d, n);
    float ndv = max(dot(-d, n), 0.0);
    float fres = 0.04 + 0.96 * pow(1.0 - ndv, 5.0);
    // metal and paint from one reflection and one highlight (software GL shades both sides of a
    // branch on every pixel: what they share is worked out once)
    vec3 env = environment(r);
    bool metal = fin >= 0.5;
    float polish = clamp((fin - 0.5) * 2.0, 0.0, 1.0);
    float gloss = fin * 2.0;
    float sharp = metal ? 30.0 + 300.0 * polish : 12.0 + 120.0 * gloss;
    float shine = metal ? 0.6 + 3.0 * polish : 0.05 + 0.6 * gloss;
    vec3 spec = u_sun_color * pow(max(dot(r, u_sun_ned), 0.0), sharp) * shine * lit;
    vec3 light = u_sun_color * diff + ambient;
    vec3 c;
    if (metal) {
        // aircraft aluminium is oxidised and scuffed: a blurred, desaturated mirror over a diffuse grey
        vec3 blurred = mix(vec3(dot(env, vec3(0.3, 0.55, 0.15))), env, 0.4);
        c = base * (blurred * (0.35 + 0.3 * polish) + light * (0.55 - 0.25 * polish)) + spec * base
            + env * fres * 0.2 * polish;
    } else {
        c = base * light + env * fres * (0.08 + 0.5 * gloss) + spec;
    }
    f_color = vec4(mix(c, v_fog.rgb, v_fog.a), 1.0);
}
