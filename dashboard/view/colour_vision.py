"""How colours look with colour-vision deficiencies, and how far apart they look: the checks behind the map's palette
(dashboard/view/colors.py; tests/test_colour_vision.py) and the simulated screenshots of docs.

- Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation of Color Vision
  Deficiency", severity 1.0 (dichromacy: deuteranopia, protanopia, tritanopia), applied to linear sRGB and clipped.
- Distance: CIEDE2000 in CIELAB (D65). About 2 is a just noticeable difference; two swatches of a legend should be
  much further apart than that (the test asks at least ``MIN_DELTA_E``).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import numpy as np

MACHADO = {  # linear-sRGB matrices of Machado et al. 2009, severity 1.0
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
}
SRGB_TO_XYZ = np.array(
    [[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]]
)
WHITE_D65 = np.array([0.95047, 1.0, 1.08883])


def hex_to_rgb(colour: str) -> np.ndarray:
    """``#0072B2`` -> [0, 0.447, 0.698] (sRGB, 0-1)."""
    c = colour.lstrip("#")
    return np.array([int(c[i : i + 2], 16) / 255 for i in (0, 2, 4)])


def to_linear(rgb: np.ndarray) -> np.ndarray:
    rgb = np.asarray(rgb, dtype=float)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def to_srgb(linear: np.ndarray) -> np.ndarray:
    linear = np.clip(linear, 0.0, 1.0)
    return np.where(linear <= 0.0031308, linear * 12.92, 1.055 * linear ** (1 / 2.4) - 0.055)


def simulate(rgb: np.ndarray, deficiency: str) -> np.ndarray:
    """sRGB colours (..., 3) as seen with ``deficiency`` (a key of MACHADO), sRGB again."""
    return to_srgb(to_linear(rgb) @ MACHADO[deficiency].T)


def to_lab(rgb: np.ndarray) -> np.ndarray:
    xyz = (to_linear(rgb) @ SRGB_TO_XYZ.T) / WHITE_D65
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e2000(lab1: np.ndarray, lab2: np.ndarray) -> float:
    """CIEDE2000 colour difference of two CIELAB colours (Sharma, Wu & Dalal 2005)."""
    L1, a1, b1 = (float(v) for v in lab1)
    L2, a2, b2 = (float(v) for v in lab2)
    c_mean = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    g = 0.5 * (1 - np.sqrt(c_mean**7 / (c_mean**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, c2p - c1p
    dh = 0.0 if c1p * c2p == 0 else (h2p - h1p + 180) % 360 - 180
    dHp = 2 * np.sqrt(c1p * c2p) * np.sin(np.radians(dh / 2))
    Lp, Cp = (L1 + L2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp = (h1p + h2p) / 2
    else:
        hp = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * np.cos(np.radians(hp - 30))
        + 0.24 * np.cos(np.radians(2 * hp))
        + 0.32 * np.cos(np.radians(3 * hp + 6))
        - 0.20 * np.cos(np.radians(4 * hp - 63))
    )
    sl = 1 + 0.015 * (Lp - 50) ** 2 / np.sqrt(20 + (Lp - 50) ** 2)
    sc, sh = 1 + 0.045 * Cp, 1 + 0.015 * Cp * t
    rt = -2 * np.sqrt(Cp**7 / (Cp**7 + 25**7)) * np.sin(np.radians(60 * np.exp(-(((hp - 275) / 25) ** 2))))
    return float(np.sqrt((dLp / sl) ** 2 + (dCp / sc) ** 2 + (dHp / sh) ** 2 + rt * (dCp / sc) * (dHp / sh)))


def closest_pair(colours: Sequence[str], deficiency: str | None = None) -> tuple[float, str, str]:
    """The two colours that look most alike (with ``deficiency``, or normal vision), and their CIEDE2000."""
    rgb = np.array([hex_to_rgb(c) for c in colours])
    lab = to_lab(simulate(rgb, deficiency) if deficiency else rgb)
    return min((delta_e2000(lab[i], lab[j]), colours[i], colours[j]) for i, j in combinations(range(len(colours)), 2))
