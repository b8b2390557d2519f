"""English: the words and patterns fsmdial reads user text with.

Everything language-specific that the engine and the rules understander use
lives in this package, so that it can be read, tested and (one day) swapped
in one place:

* :mod:`.text`: normalisation and the cheap pre-tests in front of patterns;
* :mod:`.numbers`: numbers in digits or words (``text2num``);
* :mod:`.dates`: dates;
* :mod:`.times`: times of day;
* :mod:`.answers`: yes and no;
* :mod:`.phrases`: declining to answer, closing, greeting, lead-ins;
* :mod:`.acts`: dialogue acts (greet, thank, affirm, deny, hedge, question, don't know ...) before values;
* :mod:`.names`: people's names said in a reply;
* :mod:`.digits`, :mod:`.contacts`, :mod:`.references`: phone numbers, email addresses and references;
* :mod:`.amounts`: money and lengths of time;
* :mod:`.measures`: amounts of a measure with their unit, and bounds set on one ("within about 30 metres").

It imports nothing else from fsmdial.
"""

from __future__ import annotations

from .acts import (
    Acts,
    leads,
    read_acts,
    second_thoughts,
    split_negated,
    without_deferred,
    without_echoes,
    without_questions,
    without_wish,
)
from .answers import (
    CERTAIN_ANSWERS,
    NEGATIVE_WORDS,
    NO_PATTERN,
    POSITIVE_WORDS,
    YES_PATTERN,
    concluded_yes_no,
    parse_yes_no,
)
from .contacts import ABBREVIATIONS
from .dates import (
    MONTHS,
    NEXT_ONE,
    WEEKDAYS,
    date_readings,
    impossible_date,
    parse_date,
    read_date,
    remove_dates_and_times,
    says_only_when,
    without_past_moments,
)
from .names import find_name, introduced_name, is_name_word, name_at, names_a_relative
from .numbers import WORD_NUMBERS, find_numbers, join_spaced_digits, length_before_a_noun, words_to_digits
from .phrases import (
    CLOSING_PATTERN,
    CLOSING_WORDS,
    DECLINE_PATTERN,
    DECLINE_WORDS,
    DONT_KNOW_PATTERN,
    GOODBYE_PATTERN,
    GREETING_PATTERN,
    LEAD_IN_PATTERN,
    NO_ANSWER_PATTERN,
    SELF_INTRODUCTION_PATTERN,
    THANKS_ONLY_PATTERN,
    correction_end,
)
from .statements import (
    content_with_what_they_have,
    gives_up,
    only_appraises,
    only_refuses,
    without_ruled_out,
    without_task_statements,
)
from .text import ASCII_WORDS, DIGIT, PARTY_PLURALS, PEOPLE_WORDS, fold, may_contain, may_have_word, normalize
from .times import (
    TWELVE_HOUR,
    TWENTY_FOUR_HOUR,
    approximate_clock,
    clock_readings,
    parse_time,
    read_clock,
    remove_times,
    said_as_written,
)

__all__ = [
    "PARTY_PLURALS",
    "PEOPLE_WORDS",
    "ABBREVIATIONS",
    "Acts",
    "find_name",
    "name_at",
    "introduced_name",
    "names_a_relative",
    "is_name_word",
    "leads",
    "without_wish",
    "second_thoughts",
    "read_acts",
    "ASCII_WORDS",
    "CERTAIN_ANSWERS",
    "CLOSING_PATTERN",
    "CLOSING_WORDS",
    "DECLINE_PATTERN",
    "DECLINE_WORDS",
    "DIGIT",
    "DONT_KNOW_PATTERN",
    "GOODBYE_PATTERN",
    "GREETING_PATTERN",
    "LEAD_IN_PATTERN",
    "MONTHS",
    "NEGATIVE_WORDS",
    "NO_ANSWER_PATTERN",
    "NO_PATTERN",
    "POSITIVE_WORDS",
    "SELF_INTRODUCTION_PATTERN",
    "THANKS_ONLY_PATTERN",
    "WEEKDAYS",
    "WORD_NUMBERS",
    "YES_PATTERN",
    "correction_end",
    "find_numbers",
    "join_spaced_digits",
    "length_before_a_noun",
    "words_to_digits",
    "NEXT_ONE",
    "date_readings",
    "read_date",
    "remove_times",
    "impossible_date",
    "may_contain",
    "may_have_word",
    "fold",
    "normalize",
    "parse_date",
    "parse_time",
    "read_clock",
    "approximate_clock",
    "clock_readings",
    "TWELVE_HOUR",
    "TWENTY_FOUR_HOUR",
    "said_as_written",
    "parse_yes_no",
    "concluded_yes_no",
    "remove_dates_and_times",
    "says_only_when",
    "split_negated",
    "without_past_moments",
    "without_deferred",
    "without_echoes",
    "without_questions",
    "gives_up",
    "content_with_what_they_have",
    "only_appraises",
    "only_refuses",
    "without_task_statements",
    "without_ruled_out",
]
