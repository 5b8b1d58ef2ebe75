#version 330
// Depth only (the sun's shadow map).
void main() {}
