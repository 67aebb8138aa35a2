"""The Dash app: the app and its routes (app.py), the page (layout.py, components.py), the callbacks
(callbacks/), security headers and request checks (security.py), compression (compression.py)."""
