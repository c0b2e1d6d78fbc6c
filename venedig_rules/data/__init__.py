"""Rule data: YAML read with positions, JSON Schemas, variants, cross-file checks, the board graph and layout.

May import: ``errors`` only (never the DSL, the engine or a client).
"""
