"""The settings screen (`screen`) and its sections, one module each: data, import and export, BG Stats,
sync, members and owner devices, games set aside, uploads."""
