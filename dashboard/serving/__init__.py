"""Hosting: gunicorn's settings (gunicorn_conf.py) and ``citemap serve --production`` (production.py)."""
