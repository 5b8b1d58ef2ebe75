#version 330
#include "common.glsl"
// Soft round puff: alpha falls off to the rim, a sphere's normal for the sun, darker
// toward the flat base, which cuts the cloud off level (a cumulus's base is flat: the
// condensation level); fogged with the distance like everything else.
uniform vec3 u_cam_right;
uniform vec3 u_cam_up;
uniform vec3 u_cam_fwd;
in vec2 v_uv;
in vec3 v_rel;
in vec3 v_centre;
in float v_radius;
in vec3 v_cloud;
out vec4 f_color;
#ifndef VOLUMETRIC
#define VOLUMETRIC 0
#endif
#if VOLUMETRIC
uniform sampler2D u_noise;      // the ground's noise (render/renderer.py ground_noise): the puffs' rims
#endif
void main() {
    float r2 = dot(v_uv, v_uv);
#if VOLUMETRIC
    // a rim of small heaps: the edge pushed in and out by noise fixed to the puff
    vec4 nz = texture(u_noise, v_uv * 0.35 + v_centre.xy * 0.0007);
    r2 *= 1.0 + 0.55 * (nz.b - 0.5) + 0.25 * (nz.a - 0.5);
#endif
    if (r2 > 1.0) discard;
    // the flat base: NED z grows downward, so below the base is z > base
    float below = v_rel.z - v_cloud.x;
    float base_fade = 1.0 - smoothstep(0.0, 0.04 * v_radius, below);
    if (base_fade <= 0.0) discard;
    float alpha = (1.0 - smoothstep(0.35, 1.0, r2)) * base_fade;
    vec3 n = normalize(u_cam_right * v_uv.x + u_cam_up * v_uv.y - u_cam_fwd * sqrt(max(1.0 - r2, 0.0)));
    float sun = max(dot(n, u_sun_ned), 0.0);
    // height within the cloud: 0 at the base, 1 at the top
    float h = clamp((v_cloud.x - v_rel.z) / max(v_cloud.x - v_cloud.y, 1.0), 0.0, 1.0);
    vec3 shadow = vec3(0.60, 0.64, 0.71);
    vec3 lit = vec3(1.0, 0.99, 0.96);
    vec3 c = mix(shadow, lit, clamp(0.35 + 0.45 * sun + 0.45 * h, 0.0, 1.0)) * v_cloud.z;
#if VOLUMETRIC
    // light through the thin rims toward the sun (a silver lining), the dense middle darker
    vec3 view_dir = normalize(v_rel);
    float toward = pow(max(dot(view_dir, u_sun_ned), 0.0), 6.0);
    float thin = smoothstep(0.4, 1.0, r2);
    c += vec3(1.0, 0.97, 0.9) * toward * thin * 0.6;
    c *= 1.0 - 0.18 * (1.0 - r2) * (1.0 - h) * (1.0 - toward);
    alpha *= 0.85 + 0.3 * nz.g;
#endif
    c = apply_fog(c, v_rel);
    f_color = vec4(c, alpha);
}
