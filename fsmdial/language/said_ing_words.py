"""The "-ing" words customers say (a list of data): a lower-case "-ing" word of none of them may be a surname.

A name typed in lower case ("joan pickering") ends in "-ing" as often as a sentence's verb does ("just looking"). The
list is the lower-case words of five letters or more ending in "-ing" said three times or more in the user turns of
the Schema-Guided Dialogue corpus (train and dev) and STAR: the verbs and nouns customers use ("looking", "booking",
"evening"). A name reader takes a lower-case "-ing" word after a name's first word only when it is none of them
(:func:`fsmdial.language.names.is_name`).
"""

from __future__ import annotations

__all__ = ["SAID_ING_WORDS"]

SAID_ING_WORDS = frozenset(
    """
    acting amazing annoying answering anything arriving asking attending avoiding banking beginning being biking
    bleeding blessing blowing booking boring bothering bring bringing building buying calling carrying catering
    celebrating changing chatting cheating checking coming confusing cooking coughing counting craving crawling
    crying cutting dancing darling dating dealing departing depending dining disappointing disgusting distancing
    doing drinking driving dropping during dying eating embarrassing ending engineering enjoying evening everything
    exciting expecting exploding facing failing feeling filing finding flying following forgetting freaking freezing
    frustrating gambling gathering getting giving going graduating growing growling guessing happening having
    heading hearing helping holding honking hoping hopping hosting hurting including interesting interviewing
    inviting juggling keeping kidding killing lacking learning leaving letting listening living looking losing
    making marrying meeting messing missing morning moving needing nothing opening ordering organizing outing
    packing parking passing paying performing picking planning playing practicing pricing promising pudding pulling
    putting raining rating raving reaching reading regarding relaxing remembering reminding renting reporting
    reserving returning riding running rushing saving saying scheduling searching seating seeing sending serving
    sharing shooting shopping showing sightseeing sitting smoking sneezing snowing something speaking spring staring
    starring starting starving staying stealing sticking surprising swimming switching taking talking telling
    texting thing thinking throwing timing transferring traveling travelling treating trying turning typing
    understanding upcoming upsetting using viewing visiting waiting walking wanting warming watching wearing wedding
    weeding willing winning wondering working writing
    """.split()
)
