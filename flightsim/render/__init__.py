"""Rendering (moderngl): reads snapshots only. The camera is where NED becomes GL."""
