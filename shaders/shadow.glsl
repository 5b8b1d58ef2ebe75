// The sun's shadow map (render/shadows.py): u_shadow_on 0 where the preset has none.
uniform sampler2DShadow u_shadow;
uniform float u_shadow_on;
uniform float u_shadow_texel;   // one texel of the map, 0..1

float sun_shadow(vec4 s, float ndl) {
    if (u_shadow_on < 0.5 || ndl <= 0.0) return 1.0;
    vec3 p = s.xyz / s.w;
    if (p.x <= 0.0 || p.x >= 1.0 || p.y <= 0.0 || p.y >= 1.0 || p.z >= 1.0) return 1.0;
    float bias = u_shadow_texel * (1.5 + 3.0 * sqrt(max(1.0 - ndl * ndl, 0.0)) / max(ndl, 0.2));
    float sum = 0.0;
    for (int i = -1; i <= 1; i++)
        for (int j = -1; j <= 1; j++)
            sum += texture(u_shadow, vec3(p.xy + vec2(i, j) * u_shadow_texel, p.z - bias));
    return sum / 9.0;
}
