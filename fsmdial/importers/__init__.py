"""Importers: other flow formats (CHIEF, SOP adjacency lists, STAR task schemas) into :class:`fsmdial.flow.Flow`."""
