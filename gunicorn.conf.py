"""gunicorn reads this file from the working directory: the settings live in dashboard/gunicorn_conf.py."""

from dashboard.gunicorn_conf import *  # noqa: F403
