"""Veletas's own room: its plain types (:mod:`.types`), its action encoding
(:mod:`.encoding`), its drawing (:mod:`.svg`) and its pure-Python reference
engine (:mod:`.reference`). The public API is the top-level ``veletas``
package."""
