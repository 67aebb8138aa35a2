"""arXiv's subject categories in plain words, as a researcher names them: the one table the page, its charts and its
exports name areas from ("Machine learning (cs.LG)"). The names follow arXiv's own category names
(arxiv.org/category_taxonomy), shortened where a shorter name is the one researchers use ("Computer vision" for
"Computer Vision and Pattern Recognition")."""

from __future__ import annotations

CATEGORY_NAMES: dict[str, str] = {
    "cs.AI": "Artificial intelligence",
    "cs.AR": "Hardware architecture",
    "cs.CC": "Computational complexity",
    "cs.CE": "Computational science and engineering",
    "cs.CG": "Computational geometry",
    "cs.CL": "Natural language processing",
    "cs.CR": "Security and cryptography",
    "cs.CV": "Computer vision",
    "cs.CY": "Computers and society",
    "cs.DB": "Databases",
    "cs.DC": "Distributed and parallel computing",
    "cs.DL": "Digital libraries",
    "cs.DM": "Discrete mathematics",
    "cs.DS": "Algorithms and data structures",
    "cs.ET": "Emerging technologies",
    "cs.FL": "Formal languages and automata",
    "cs.GL": "General literature",
    "cs.GR": "Computer graphics",
    "cs.GT": "Game theory",
    "cs.HC": "Human-computer interaction",
    "cs.IR": "Information retrieval",
    "cs.IT": "Information theory",
    "cs.LG": "Machine learning",
    "cs.LO": "Logic in computer science",
    "cs.MA": "Multi-agent systems",
    "cs.MM": "Multimedia",
    "cs.MS": "Mathematical software",
    "cs.NA": "Numerical analysis",
    "cs.NE": "Neural and evolutionary computing",
    "cs.NI": "Networking",
    "cs.OH": "Other computer science",
    "cs.OS": "Operating systems",
    "cs.PF": "Performance",
    "cs.PL": "Programming languages",
    "cs.RO": "Robotics",
    "cs.SC": "Symbolic computation",
    "cs.SD": "Sound",
    "cs.SE": "Software engineering",
    "cs.SI": "Social and information networks",
    "cs.SY": "Systems and control",
    "eess.AS": "Audio and speech processing",
    "eess.IV": "Image and video processing",
    "eess.SP": "Signal processing",
    "eess.SY": "Systems and control",
    "math.CO": "Combinatorics",
    "math.IT": "Information theory",
    "math.NA": "Numerical analysis",
    "math.OC": "Optimization and control",
    "math.PR": "Probability",
    "math.ST": "Statistics theory",
    "q-bio.NC": "Neurons and cognition",
    "q-bio.QM": "Quantitative methods in biology",
    "quant-ph": "Quantum physics",
    "stat.AP": "Applied statistics",
    "stat.CO": "Statistical computation",
    "stat.ME": "Statistical methodology",
    "stat.ML": "Statistical machine learning",
    "stat.TH": "Statistics theory",
}

# what the papers are, by the arXiv archive of their primary areas (``cs.LG`` -> cs)
ARCHIVE_NAMES: dict[str, str] = {
    "cs": "computer-science",
    "math": "mathematics",
    "stat": "statistics",
    "physics": "physics",
    "astro-ph": "astrophysics",
    "q-bio": "biology",
    "q-fin": "finance",
    "econ": "economics",
    "eess": "engineering",
}


def category_name(code: str) -> str:
    """A category as a person reads it: ``cs.LG`` -> ``Machine learning (cs.LG)``; a code not in the table (a
    dataset's own area names) as it is."""
    name = CATEGORY_NAMES.get(code)
    return f"{name} ({code})" if name else code
