"""Charts from one description, drawn wherever the app runs.

`spec` holds a chart as plain typed data (no Flet): its kind (line, bar, share), series with label, colour and
points, the axes with their grid step and tick labels, the legend and the summary a screen reader says.
`describe` makes those descriptions from the numbers `scorekeeper.stats` gives. `draw` picks the renderer the
client can show: `flet_charts` (flet-charts' controls, in the served app) or `canvas` (Flet's own canvas, which
the static build's prebuilt client has too), and adds the legend and the chart's accessible name.
"""
