"""Built-in strategies, one module per game; each module's REGISTRY maps names to definitions."""
