"""Natural-language understanding for fsmdial (local models only)."""
