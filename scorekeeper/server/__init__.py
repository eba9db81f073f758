"""The web server and its security: Flet's server made fit for a network (`web`, `headers`, `proxies`,
`uploads`, `web_index`), who a session is (`owner_session`, `owner_devices`: device tokens), what each role may do
(`permissions`, `rights`, `pin_tries`), and the process-wide services the screens share (`table_runtime`,
`sync_runtime`).

May import: `scorekeeper.sync`, `scorekeeper.table`, `scorekeeper.digital`, `scorekeeper.exchange` (the import
file's limit), `scorekeeper.store`, `scorekeeper.model`, `scorekeeper.games` and the platform modules. The screens
(`scorekeeper.ui`) import from here, never the other way round: a session is known here as
`owner_session.Visit`, a Protocol the screens' `AppContext` fits."""
