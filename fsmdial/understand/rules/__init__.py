"""The rules reading: the deterministic understander (no model, same input, same parse).

* :mod:`.understander`: :class:`RulesUnderstander` (re-exported here), and its strict subset
  :meth:`~RulesUnderstander.settle`, the fast path before a model;
* :mod:`.state_tables`: what the rules read from one understanding state (its patterns, values and slots), worked out
  once per state;
* :mod:`.categories`: categorical values in a reply (plurals, described synonyms, typos);
* :mod:`.described_details`: the description a value leads to asking for, told in choosing the value ("our hot tub
  keeps tripping the electrics": a repair, and what is wrong), when that question is answered by other values;
* :mod:`.described`: the asked categorical slot's value told by most of one of its described forms ("a 2 bed
  terrace": a large van), proposed and said back;
* :mod:`.forms`: values of slots with a pattern by their form and cue words (phones, emails, references);
* :mod:`.corrections`: a word put in place of another ("14, not 12");
* :mod:`.numbers_between`: a bare number two numeric slots could take, passed on to be asked which;
* :mod:`.text_values`: a free-text or name slot's value in a reply, without the words around it;
* :mod:`.changes`: a change in any words ("make that 5", "8 instead of 7", "no wait, 8pm", "the surname is Clark");
* :mod:`.coverage`: the words a reading leaves open (the turn's open part, which goes to a model);
* :mod:`.head_counts`: a head count by who comes ("just me", "me, my wife and the kids", "with two mates");
* :mod:`.worded_answers`: answers said in words instead of their value: an asked yes/no by a statement naming its
  subject ("there's parking on the drive") or one of its sides ("we've got our own"), no preference ("whoever's free");
* :mod:`.pronoun_one`: a "one" standing for a thing ("the red one", "we both had one"), no number;
* :mod:`.places`: a place slot's place after its cue word ("a hotel in London, UK", "from Fresno to Sacramento");
* :mod:`.day_values`: categorical slots of weekdays or days of the month, from a date said ("tomorrow", "5/9");
* :mod:`.date_roles`: a start and an end date slot's dates by the words before each ("from the 6th till Friday");
* :mod:`.intent_words`: an intent said by its short example's words with others between them ("find a movie");
* :mod:`.credits`: who made a work, after the words crediting them ("directed by Harry Elfont");
* :mod:`.first_time`: a first visit or an earlier one said in words ("it's my first time", "I've been before");
* :mod:`.named_things`: the things named in reply to the kind of job, for the flow's items and their count;
* :mod:`.proposals`: a value chosen by meaning and said back, put right by the next reply in other words;
* :mod:`.choices`: a reply to a question answered by choosing (an SOP's user states);
* :mod:`.time_ranges`: a length said as a range of clock times ("7 till 10"), for the flow's duration slot;
* :mod:`.numbers_said`: numbers that count nothing at hand (a range of counts, a length of time);
* :mod:`.yes_no_replies`: a reply to a yes/no question read as a yes or a no, and what a yes is said to be ("one of
  us is coeliac" to "any allergies?");
* :mod:`.measured_answers`: a yes/no question bounding a measure answered by the measure ("within 30 metres?" "the
  tank's about 10 metres from the drive");
* :mod:`.shaped_names`: a thing's name said in passing in the shape of its slot's examples ("my Samsung Galaxy S20").

It reads English through :mod:`fsmdial.language` and imports nothing of :mod:`fsmdial.understand` but
:mod:`~fsmdial.understand.base`.
"""

from __future__ import annotations

from .understander import RulesUnderstander

__all__ = ["RulesUnderstander"]
