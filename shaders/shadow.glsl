// The sun's shadow map (render/shadows.py). SHADOW_TAPS, a #define (the preset's: 0 none, 1 the
// hardware's 2x2 comparison filter, 9 a 3x3 of those), is made at compile time: software GL runs
// both sides of every branch, so a preset without shadows must not carry their code.
#ifndef SHADOW_TAPS
#define SHADOW_TAPS 0
#endif
uniform sampler2DShadow u_shadow;
uniform float u_shadow_on;
uniform float u_shadow_texel;   // one texel of the map, 0..1

float sun_shadow(vec4 s, float ndl) {
#if SHADOW_TAPS == 0
    return 1.0;
#else
    vec3 p = s.xyz / s.w;
    float inside = step(0.5, u_shadow_on) * step(0.0, ndl) * step(0.0, p.x) * step(p.x, 1.0) * step(0.0, p.y)
                   * step(p.y, 1.0) * step(p.z, 1.0);
    float bias = u_shadow_texel * (1.5 + 3.0 * sqrt(max(1.0 - ndl * ndl, 0.0)) / max(ndl, 0.2));
#if SHADOW_TAPS == 1
    float lit = texture(u_shadow, vec3(p.xy, p.z - bias));
#else
    float lit = 0.0;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
            lit += texture(u_shadow, vec3(p.xy + vec2(i, j) * 1.5 * u_shadow_texel, p.z - bias)) / 9.0;
#endif
    return mix(1.0, lit, inside);
#endif
}
