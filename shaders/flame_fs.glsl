#version 330
// An afterburner's plume: a blue-white core narrowing away from the nozzle in an orange
// flame, its shock diamonds (bright bands spaced along it), flickering; at military power
// only a faint glow at the nozzle. Added to what is behind it.
uniform float u_time;
in vec2 v_uv;
in float v_heat;
out vec4 f_color;
void main() {
    float along = v_uv.x;
    float across = abs(v_uv.y);
    float width = mix(1.0, 0.25, along);            // the plume narrows
    if (across > width) discard;
    float edge = 1.0 - smoothstep(0.4 * width, width, across);
    float diamonds = 0.75 + 0.25 * cos(along * 6.2832 * 4.5) * (1.0 - along);
    float flicker = 0.85 + 0.15 * sin(u_time * 61.0 + along * 9.0);
    float fade = (1.0 - along) * (1.0 - along);
    vec3 core = vec3(0.75, 0.85, 1.0);
    vec3 plume = vec3(1.0, 0.55, 0.18);
    vec3 c = mix(core, plume, smoothstep(0.05, 0.45, along + across * 0.3));
    float a = edge * diamonds * flicker * fade * clamp(v_heat * 1.2, 0.0, 1.0);
    f_color = vec4(c * (1.2 + 0.6 * (1.0 - across)), a);
}
