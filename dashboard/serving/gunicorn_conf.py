"""gunicorn settings for hosting citemap: `gunicorn --config python:dashboard.serving.gunicorn_conf` (the Procfile)
and `citemap serve --production` use them.

The dataset is loaded once in the master (``preload_app``) and shared by the forked workers.
Environment: PORT (default 8050), CITEMAP_DATA (dataset folder), WEB_CONCURRENCY (workers),
CITEMAP_TIMEOUT (seconds).
"""

import multiprocessing
import os

import gunicorn.http.wsgi

# gunicorn writes "Server: gunicorn" itself, before the app's headers (the app drops any Server header of its
# own): it names the software a visitor's request reached; "citemap" names only the site.
gunicorn.http.wsgi.SERVER = "citemap"

bind = f"{os.environ.get('HOST', '0.0.0.0')}:{os.environ.get('PORT', '8050')}"
workers = int(os.environ.get("WEB_CONCURRENCY", max(2, min(8, multiprocessing.cpu_count()))))
threads = int(os.environ.get("CITEMAP_THREADS", "1"))
preload_app = True
timeout = int(os.environ.get("CITEMAP_TIMEOUT", "30"))
graceful_timeout = 20
keepalive = 5
max_requests = 5000
max_requests_jitter = 500
limit_request_line = 8190
limit_request_fields = 100
limit_request_field_size = 8190
accesslog = "-"
errorlog = "-"
loglevel = os.environ.get("CITEMAP_LOGLEVEL", "info")
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
wsgi_app = "dashboard.app:server"
control_socket_disable = True  # gunicorn's control socket would be a file under $HOME: the viewer writes nothing
