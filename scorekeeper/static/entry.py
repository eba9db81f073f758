"""The module the static build's Python worker runs (`runpy.run_module`, as `__main__`): the app in the browser.

A module of its own, so that the worker (scorekeeper/static/worker.py), which the build's snapshot of the started
interpreter has imported already, is not run a second time as `__main__` beside its imported copy.
"""

from scorekeeper.capabilities import IN_BROWSER

if __name__ == "__main__" and IN_BROWSER:
    from scorekeeper.static.worker import start

    start()
