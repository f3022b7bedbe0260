"""The server's web side: HTTP GET for the pages (``http``) and the spectator frames they send (``desk``).

The pages themselves are package data of ``shared.web``; they talk to the server over the
documented websocket protocol only.
"""

from server.web.desk import WebDesk
from server.web.http import CONTENT_TYPES, answer_http

__all__ = ["CONTENT_TYPES", "WebDesk", "answer_http"]
