"""An exterior being assembled: its skins, the pieces of them to mesh (each with its grid density
scaled by the level of detail) and glass, and its moving parts (render/model/exterior.py and
fittings.py add to it)."""
from __future__ import annotations

from .parts import Part
from .skin import Piece, Skin


class Assembly:
    """What build() gathers: skins, pieces to mesh, glass and moving parts (part 0: the rigid airframe)."""

    def __init__(self, detail: float):
        self.detail = detail
        self.skins: list[Skin] = []
        self.pieces: list[Piece] = []
        self.glass: list[Piece] = []
        self.parts = [Part("rigid")]

    def part(self, p: Part) -> int:
        self.parts.append(p)
        return len(self.parts) - 1

    def skin(self, s: Skin) -> Skin:
        self.skins.append(s)
        return s

    def n(self, count: float, lo: int = 2) -> int:
        return max(int(round(count * self.detail)), lo)

    def add(self, skin, part=0, nu=8, nv=8, u=(0.0, 1.0), v=(0.0, 1.0), u_warp=None, v_warp=None):
        self.pieces.append(Piece(skin, u[0], u[1], v[0], v[1], self.n(nu), self.n(nv), part, u_warp, v_warp))
