"""Exit 0 when the PostgreSQL server named by the URL accepts connections."""

import socket
import sys
from urllib.parse import urlparse

url = urlparse(sys.argv[1])
try:
    with socket.create_connection((url.hostname or "127.0.0.1", url.port or 5432), timeout=2):
        pass
except OSError:
    sys.exit(1)
