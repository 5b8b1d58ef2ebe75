#version 330
uniform mat4 m_proj;
uniform mat4 m_view;
in vec3 in_position;            // unit tree: height 1 along -z (up), radius 1
in vec3 in_normal;
uniform vec3 u_shift;           // where the eye was when the instances were chosen, less where it is
in vec4 in_inst;                // north, east, down (relative to the eye when chosen), height
in vec2 in_inst2;               // crown radius, tint
out vec3 v_rel;
out vec3 v_normal;
out vec3 v_color;
void main() {
    vec3 p = vec3(in_position.xy * in_inst2.x, in_position.z * in_inst.w) + in_inst.xyz + u_shift;
    v_rel = p;
    v_normal = normalize(vec3(in_normal.xy / in_inst2.x, in_normal.z / in_inst.w));
    v_color = mix(vec3(0.09, 0.22, 0.08), vec3(0.20, 0.32, 0.10), in_inst2.y);
    if (in_position.z > -0.12) v_color = vec3(0.25, 0.18, 0.1);
    gl_Position = m_proj * m_view * vec4(p, 1.0);
}
