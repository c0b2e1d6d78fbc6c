"""The reference web front end (``venedig-rules serve``): tables of seats and tokens, each seat's
page data from its view, and the Starlette app that serves them with the plain HTML/JS/SVG page,
behind the guards of ``security`` and the per-client ``limits``.

May import: ``errors``, ``data``, ``effects``, ``engine``, ``present``, ``bots`` (never ``testing``,
``adapters``, ``simulate`` or ``cli``); Starlette and uvicorn only in ``app``, ``security`` and
``serve``.
"""
