"""The match model: a scored game (`Match`), its stored record, its tally and standings, the time played, the
evening around it (place, notes, pauses) and the free-text rules, each as pure data and pure changes.

May import: `scorekeeper.games` (the rules) and the package root (`release`, `capabilities`, `spans`). No Flet, no
files: the store keeps these records, the screens show them."""
