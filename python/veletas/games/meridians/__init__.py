"""Meridians's own room: its plain types (:mod:`.types`) and its pure-Python
reference engine (:mod:`.reference`). The public API is :mod:`veletas.meridians`."""
