"""Pilots that fly through the same control inputs as the player: the scenarios' autopilots
and the AI fighter pilot."""
