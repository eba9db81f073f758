"""The Flet app's screens: the app and its shell, the context a screen gets (`context`, over the session's state
kept between redraws, `session_state`), routes and the registry of each game's screens, translations (`i18n`,
`locales/`), the theme, shared components (`components/`), the digital-play panels (`digital/`) and the views
grouped by feature (`views/`). Views never recompute scores: the model and the rules do.

May import every room below it (`server`, `sync`, `table`, `digital`, `stats`, `lab`, `exchange`, `store`,
`model`, `games`, the platform modules); only `scorekeeper.bench` and `scorekeeper.static` import it.
Inside it, `session_state` and `context` import no screen."""
