"""The static build served at `/app/` by the owner's server: its gzipped files answered under their plain names.

The static build keeps its largest files as `<name>.gz` only (scorekeeper/static/trim.py GZIPPED) and everything
asks for them by their plain names. A plain static host answers those with 404, and the page's and the worker's
scripts then fetch the `.gz` and inflate it themselves, some of it into `blob:` scripts; but this server's
Content-Security-Policy runs no `blob:` script (scorekeeper/server/headers.py). So here a plain name whose file
is missing is answered with its `.gz` and `Content-Encoding: gzip`, and the browser inflates it as it reads it,
as with any precompressed file of a web server; the page's scripts see the plain name answered and do nothing.
"""

from __future__ import annotations

import mimetypes
import stat

import anyio
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope


class PrecompressedFiles(StaticFiles):
    """Starlette's static files, and for a missing file with a `.gz` beside it, that one, gzip-encoded."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        try:
            return await super().get_response(path, scope)
        except HTTPException as missing:
            if missing.status_code != 404 or path.endswith(".gz"):
                raise
            packed, found = await anyio.to_thread.run_sync(self.lookup_path, path + ".gz")
            if found is None or not stat.S_ISREG(found.st_mode):
                raise
            media_type = mimetypes.guess_type(path)[0] or "text/plain; charset=utf-8"  # NOTICES has no suffix
            return FileResponse(
                packed,
                stat_result=found,
                media_type=media_type,
                headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
            )
