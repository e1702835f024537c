"""The games. Each subpackage knows only spacetable.engine and registers itself on import."""
