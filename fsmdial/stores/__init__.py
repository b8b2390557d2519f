"""The session stores behind :mod:`fsmdial.store`: the interface they share (:mod:`.base`), SQLite (:mod:`.sqlite`,
the default) and PostgreSQL (:mod:`.postgres`, needs ``fsmdial[postgres]``). Open one by URL with
:func:`fsmdial.store.open_store`."""
