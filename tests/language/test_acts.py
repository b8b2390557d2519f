"""fsmdial.language.acts: what a message does before what values it holds."""

from __future__ import annotations

import pytest

from fsmdial.language import leads, normalize, parse_yes_no, read_acts, second_thoughts


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("hi, I'm Jane", "I'm Jane"),
        ("um, so, yeah, it's for four", "it's for four"),
        ("uh, hi, yeah, it's Kevin", "it's Kevin"),
        ("Good evening, Sofia here", "Sofia here"),
        ("sorry, 251", "251"),
        ("Sofia", "Sofia"),  # "so" in front of a name is no filler
    ],
)
def test_greetings_and_filler_in_front_of_a_value_are_stripped(text, rest):
    assert read_acts(text).rest == rest


@pytest.mark.parametrize("text", ["hi there", "Good evening", "thanks!", "hmm let me think", "ok", "yes please"])
def test_a_greeting_thanks_or_stall_holds_no_value(text):
    assert read_acts(text).holds_no_value


@pytest.mark.parametrize("text", ["um Jane Smith", "yeah hi um this is Rachel Green", "uh just one please"])
def test_an_um_in_front_of_a_value_is_filler_not_a_stall(text):
    acts = read_acts(text)
    assert not acts.stall and not acts.holds_no_value


@pytest.mark.parametrize(
    "text", ["hey, do you guys have vegan options?", "what's my balance?", "how much does a ride to the airport cost"]
)
def test_a_question_holds_no_value(text):
    acts = read_acts(text)
    assert acts.question and acts.holds_no_value


@pytest.mark.parametrize(
    ("text", "asks_for_action"),
    [
        ("can you move it to tomorrow morning?", True),
        ("could we add a stop at the pharmacy?", True),
        ("can you tell me the menu?", False),
        ("do you have vegan options?", False),
    ],
)
def test_a_request_is_told_from_a_question_for_information(text, asks_for_action):
    assert read_acts(text).request is asks_for_action


@pytest.mark.parametrize(
    ("text", "dont_know"),
    [
        ("hmm, I don't know yet, let me check with the others", True),
        ("not sure", True),
        ("I'm not sure", True),
        ("there's a transfer of 900 euros to an account I don't know", False),
        ("there is a payment in Paris I don't know about", False),
    ],
)
def test_dont_know_is_a_dont_know_only_where_it_leads_the_message(text, dont_know):
    assert read_acts(text).dont_know is dont_know


def test_leads_counts_the_words_before_a_phrase():
    norm = normalize("well um I don't know")
    assert leads(norm, norm.index("i don't"))
    norm = normalize("a transfer to an account I don't know")
    assert not leads(norm, norm.index("i don't"))


@pytest.mark.parametrize(
    ("text", "later"),
    [
        ("hmm I don't know the booking number, let me check... ok it's 640", "it's 640"),
        ("I'd rather not say my pin... ok fine, it's 2468", "fine, it's 2468"),
        ("I don't know my email by heart, hold on... it's greg.hill@yahoo.com", "it's greg.hill@yahoo.com"),
        (
            "hmm I don't know the exact address, it's my mum's house... hold on, it's 3 Rose Lane, Bath",
            "it's 3 Rose Lane, Bath",
        ),
    ],
)
def test_the_value_found_after_a_dont_know_is_read(text, later):
    assert second_thoughts(text) == later


@pytest.mark.parametrize(
    "text",
    [
        "I don't know",
        "hmm, I don't know yet... let me check",  # still looking
        "12 Mill Lane, Oxford",  # nothing unsure in front
        "actually, make it 5",
        "I don't know... ok",  # nothing but filler after
    ],
)
def test_no_second_thoughts_without_an_unsure_start_and_a_value_after(text):
    assert second_thoughts(text) is None


@pytest.mark.parametrize(
    "text",
    [
        "yep that's all correct",
        "yess pls",
        "yes please",
        "that all looks good",
        "yes that's right now",
        "go on then",  # British: a yes to an offer
        "yes that's everything, thanks",
        "yes thank you love",  # what a customer calls the agent is social
        "yes dear, that's right",
        "cheers mate, book it",
        "yh thats right",  # texted (round 8, h8b-28)
        "that all sounds good, thanks very much",  # round 8, h8a-13
        # eagerness after a yes (round 10): its "can't" denies and its "wait" stalls nothing
        "yes, can't wait to get it sorted",
        "lovely, really looking forward to it",
        "yeah let's go for it",
        "yes that's better, thanks",  # after a change (round 11)
    ],
)
def test_plain_yes_in_customers_words(text):
    assert read_acts(text).plain_yes


@pytest.mark.parametrize("text", ["Buddy", "love", "Chief"])
def test_what_one_calls_the_agent_is_social_only_after_a_yes_thanks_or_greeting(text):
    assert not read_acts(text).only_social  # alone, a pet's name or an answer


@pytest.mark.parametrize(("text", "yes"), [("go on, add it", "yes"), ("go on then", "yes"), ("go on holiday", None)])
def test_a_go_on_alone_or_before_a_pause_is_a_yes(text, yes):
    assert parse_yes_no(text) == yes and not read_acts("the lights go on and off").affirm


@pytest.mark.parametrize(
    "text",
    [
        "that's all correct except the time",
        "yes, but make it 8pm",
        "yes?",
        "yes... hmm",
        "yes, can't wait to come on Thursday",  # a day in the eagerness may be a change
        "can't wait",  # no yes
        "yes, wait",
    ],
)
def test_a_yes_with_anything_against_it_is_no_plain_yes(text):
    assert not read_acts(text).plain_yes


@pytest.mark.parametrize(
    "text",
    [
        "It doesn't matter to me.",
        "I don't really care about the area, but I would like it to have free parking.",
        "Any area is fine.",
        "No particular type of food but I need it in the moderate price range.",
        "No, I am not picky.",
        "any will be fine but should include free wifi",
        "I don't have a preference for the area.",
    ],
)
def test_no_preference_as_multiwoz_users_say_it(text):
    assert read_acts(text).no_preference


@pytest.mark.parametrize("text", ["I need a cheap restaurant", "do you have any vegan options?", "the area is north"])
def test_a_constraint_is_no_no_preference(text):
    assert not read_acts(text).no_preference


def test_a_no_preference_inside_a_long_statement_leaves_it_a_value():
    assert read_acts("whatever box you recommend").holds_no_value
    said = read_acts("nothing in particular happened, but a payment of 80 pounds went out")
    assert said.no_preference and not said.holds_no_value
