"""The live table: one host, phones join by code, each phone holds only its own seat, a board shows the table.

No Flet here: `host.TableHost` keeps the tables by join code, `table.Table` one table's seats, tokens and play
session, `seats` a seat and its token, `payloads` what each phone and the board receive, `moves` the move log,
`public.public_of` what the board may show, `codes` the join codes and the wrong-code guard.

May import: `scorekeeper.digital` (a table's play session), `scorekeeper.store`, `scorekeeper.model`,
`scorekeeper.games`.
"""
