"""Helper of bench/synth.py, not an entry point: the synthetic titles' vocabulary, real title words first.

``vocabulary(size)`` returns ``size`` distinct lower-case words in rank order (rank 0 is the most
frequent): the hand-written head below (function words and the common words of arXiv titles, roughly
in the order of their frequency), then words derived from technical stems with real English prefixes
and suffixes (``multi`` + ``scale``, ``regular`` + ``ization``), so that the long tail shares prefixes the
way a real title vocabulary does (``graph``, ``graphs``, ``graphical``, ``graphon`` ...). Written by hand
for the benchmarks; nothing here is copied from a data set.
"""

from __future__ import annotations

_HEAD_TEXT = """
for of the and a in with on learning via to neural networks deep from using model models network
data based an multi graph language large towards efficient analysis approach method training optimization
generation estimation detection adaptive robust image self reinforcement framework representation
semi supervised unsupervised transformer transformers attention systems system control time dynamic
learning stochastic gradient algorithm algorithms inference bayesian probabilistic online federated
distributed generative adversarial diffusion segmentation classification recognition prediction
regression clustering sparse low rank matrix tensor convex non linear nonlinear optimal fast scalable
structured structure knowledge text visual video speech audio object scene semantic 3d point cloud
human robot robotic policy agent agents multiagent planning search retrieval question answering dialogue
translation machine memory causal fairness privacy secure security attack attacks defense adversarial
uncertainty quantification benchmark dataset datasets evaluation survey review study case toward
contrastive embedding embeddings feature features kernel kernels random forest trees tree decision
variational autoencoder autoencoders latent space spaces manifold geometric geometry topological
physics informed differential equations equation solver solvers numerical simulation operator operators
convolutional recurrent lstm gnn gnns cnn rnn mlp vision pretrained pre trained fine tuning prompt
prompting instruction reasoning chain thought large scale small few shot zero one two multi modal
multimodal cross domain adaptation generalization transfer continual lifelong meta active curriculum
sampling monte carlo markov process processes gaussian mixture field fields theory theoretical bounds
bound complexity convergence analysis guarantees provable provably efficient sample regret bandit bandits
game games equilibrium mechanism design market auction social medical clinical health healthcare
patient brain mri ct imaging images pixel resolution super denoising restoration compression coding
quantization pruning distillation hardware accelerator energy power wireless communication channel
signal signals spectrum radar sensing sensor sensors iot edge cloud computing parallel gpu memory
efficient scheduling resource allocation traffic vehicle vehicles autonomous driving navigation
localization mapping slam tracking pose motion estimation depth stereo optical flow surface mesh shape
shapes rendering neural radiance implicit explicit representations hierarchical temporal spatial
spatio spatiotemporal sequence sequences token tokens vocabulary word words sentence document documents
code program programs software bug repair verification formal logic symbolic hybrid interpretable
explainable explanation explanations interpretability trust trustworthy safe safety alignment human
feedback preference reward rewards value function functions approximation policy gradient actor critic
offline model free based exploration imitation inverse demonstrations hierarchical skill skills
world worlds simulation real sim transfer benchmarking challenges opportunities perspective lessons
empirical understanding revisiting rethinking improving improved improves enhancing enhanced boosting
learning learn learned learns learnable beyond without through under over between across against
what when how why is are can do does all you need matters
"""
HEAD = _HEAD_TEXT.split()

STEMS = """
graph tensor matrix vector kernel signal image pixel voxel token patch frame scene object shape
surface mesh point cloud field flow wave spectrum channel feature label class cluster sample batch
layer neuron weight gradient policy reward agent state action value memory attention query key
network model system process operator solver sampler encoder decoder generator discriminator critic
embed- encode- decode- compress- quantize- prune- distill- align- adapt- augment- regular normal
stable robust sparse dense random linear convex smooth discrete continu- dynamic static causal
temporal spatial semantic syntactic lexical visual acoustic optical thermal quantum molecular
protein genom- cell neural cortical cognit- percept represent predict classif- segment detect
recogn- estimat- optim- generat- transform convolut- recurr- autoregress- variat- bayes probabil-
statist- stochast- determin- parameter contrast invari- equivari- symmetr- topolog- geometr-
algebra combinator- hierarch- modular compos factor decompos- interpol- extrapol- calibrat- certif-
verif- explor- exploit navig- locali- manipul- grasp locomot- plan schedul- allocat- rout- traffic
commun- transmiss- modulat-
"""

PREFIXES = (
    "",
    "multi",
    "semi",
    "self",
    "cross",
    "hyper",
    "meta",
    "non",
    "un",
    "re",
    "pre",
    "sub",
    "super",
    "inter",
    "intra",
    "over",
    "under",
    "co",
    "de",
    "auto",
    "micro",
    "macro",
    "neuro",
    "bio",
    "geo",
    "poly",
    "mono",
    "bi",
    "tri",
    "trans",
)
SUFFIXES = (
    "",
    "s",
    "al",
    "ic",
    "ical",
    "ing",
    "ed",
    "er",
    "ers",
    "ion",
    "ions",
    "ation",
    "ations",
    "ive",
    "ively",
    "ity",
    "ities",
    "ness",
    "ize",
    "ized",
    "ization",
    "able",
    "ability",
    "ous",
    "ment",
    "ments",
    "ist",
    "ism",
    "ly",
    "on",
    "ons",
    "ia",
    "ics",
    "let",
    "lets",
)


def _join(stem: str, suffix: str) -> str:
    if stem.endswith("e") and suffix[:1] in ("a", "e", "i", "o", "u"):
        stem = stem[:-1]
    return stem + suffix


def vocabulary(size: int = 4000) -> list[str]:
    """``size`` distinct words, most frequent first (deterministic)."""
    words: list[str] = []
    seen: set[str] = set()

    def add(w: str) -> None:
        if w and w not in seen and len(w) <= 24:
            seen.add(w)
            words.append(w)

    for w in HEAD:
        add(w)
    # a stem written with a trailing "-" is not a word by itself (``estimat-``): it always takes a suffix
    stems = [(s.rstrip("-"), s.endswith("-")) for s in STEMS.split()]
    # derived words, in rounds: every stem with the next suffix (``graphs``, ``graphical``), then the next
    # prefix on every other stem, bare or with a common suffix (``multigraph``, ``selfsupervised``), so
    # that each stem's family spreads over the ranks like a real vocabulary's
    for k, suffix in enumerate(SUFFIXES):
        for stem, bound in stems:
            if not (bound and suffix in ("", "s")):
                add(_join(stem, suffix))
        if k + 1 < len(PREFIXES):
            for i, (stem, bound) in enumerate(stems[k % 2 :: 2]):
                tail = ("ing", "ed", "s", "ation", "al")[i % 5] if bound else ("", "s", "ing")[i % 3]
                add(PREFIXES[k + 1] + _join(stem, tail))
        if len(words) >= size:
            return words[:size]
    return words
