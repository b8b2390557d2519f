"""The corpora's own formats as fsmdial flows: STAR task schemas (:mod:`.star`, with the hand corrections in
``star_overlays/``) and SGD service schemas (:mod:`.sgd`)."""
