"""Luigi's pizzeria: an example application embedding fsmdial (flow, tools, tests, benchmarks)."""
