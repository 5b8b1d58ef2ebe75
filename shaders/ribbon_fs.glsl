#version 330
#define FRAGMENT_SHADER
#include "common.glsl"
#include "shadow.glsl"
#include "terrain_paint.glsl"
// Asphalt with its edges and a dashed centre line, a gravel lane, the railway's ballast with
// its two rails and the sleepers, the river's water (the sky reflected, the sun's glint).
in vec3 v_rel;
in vec2 v_uv;
in float v_kind;
in float v_alpha;
in float v_half;
in vec4 v_shadow;
out vec4 f_color;
void main() {
    float a = abs(v_uv.x);
    float dist = length(v_rel);
    vec3 d = v_rel / max(dist, 1e-3);
    vec3 up = vec3(0.0, 0.0, -1.0);
    float lit = sun_shadow(v_shadow, dot(up, u_sun_ned));
    vec3 light = u_sun_color * max(dot(up, u_sun_ned), 0.0) * lit + u_ambient * (0.25 + 0.2);
    vec3 col;
    float alpha = v_alpha * smoothstep(1.0, 0.85, a);         // soft edges
    if (v_kind < 0.5) {                                       // the river
        vec3 r = reflect(d, up);
        col = water_color(d) * (0.55 + 0.45 * lit) + vec3(1.0, 0.9, 0.7) * pow(max(dot(r, u_sun_ned), 0.0), 200.0) * lit;
        col = mix(col, vec3(0.20, 0.22, 0.15) * light, smoothstep(0.82, 1.0, a));   // the banks
        f_color = vec4(apply_fog(col, v_rel), alpha);
        return;
    }
    float fade = clamp(1.0 - dist / 600.0, 0.0, 1.0);         // fine detail only near
    if (v_kind < 1.5) {                                       // the railway
        col = vec3(0.40, 0.37, 0.33);
        float across_m = v_uv.x * v_half;
        float rails = smoothstep(0.09, 0.03, abs(abs(across_m) - 0.72));
        float sleepers = step(0.55, fract(v_uv.y / 0.65)) * step(abs(across_m), 1.3);
        col = mix(col, vec3(0.22, 0.17, 0.12), 0.7 * sleepers * fade);
        col = mix(col, vec3(0.30, 0.30, 0.32), rails * max(fade, 0.4));
    } else if (v_kind < 2.5) {                                // a main road: asphalt
        col = vec3(0.27, 0.27, 0.28) * (0.95 + 0.1 * hash(floor(v_rel.xy * 0.7 + v_uv.yy)));
        float edge = smoothstep(0.86, 0.9, a) * smoothstep(0.98, 0.94, a);
        float dash = step(fract(v_uv.y / 12.0), 0.5) * smoothstep(0.05, 0.02, a);
        col = mix(col, vec3(0.85), (edge + dash) * fade);
    } else {                                                  // a lane: gravel
        col = vec3(0.50, 0.45, 0.36) * (0.92 + 0.16 * hash(floor(v_rel.xy * 1.3)));
    }
    f_color = vec4(apply_fog(col * light, v_rel), alpha);
}
