"""The static web build (`make static`): a site where the app's Python runs in the browser (Pyodide), offline.
`build` makes `dist/`, `start` makes it start sooner, `trim` leaves out what it never uses, `sw.js` is its offline
worker, and `worker` is the Python entry the browser runs.

May import everything below the screens (`ui.app` is what `worker` starts); nothing imports this package."""
