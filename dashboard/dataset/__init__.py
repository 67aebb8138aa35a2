"""The dataset on disk: its format (format.py), writing a build (write.py) into a folder of builds
(builds.py) with checksums (integrity.py), the index written (index_write.py, spill.py, search_write.py) and read
(index.py), matching keys (keys.py), and the Store that answers queries from a build (store.py)."""
