"""The view's state (state.py: the URL's parameters) and the graph algorithms on a store: neighbourhoods
(neighbourhood.py), similar papers (similarity.py), paths (paths.py), clusters (clusters.py), what a mode adds
(discovery.py), and positions (layouts.py, force_layout.py, geometry.py). Plain data in, plain data out."""
