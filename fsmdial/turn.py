"""One turn's work after understanding: intents, slot updates, answers, then the node steps.

:func:`respond`, in order: a route away (an Assistant's other flow), goodbye, a
decline or a global action; slot updates (coerced, validated; a changed slot
resets the nodes depending on it and rewinds the machine to the node asking it);
the answer to a pending confirmation; :func:`~fsmdial.steps.advance`; a fallback
when nothing else was said. :func:`understanding_state` says what the user may
say at the session's node.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
import time
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import UnderstandingError
from .flow import ConfirmNode, Flow, RequestNode, Slot, SlotType
from .held_changes import held_changes
from .jsonvalues import jsonable
from .language import (
    Acts,
    date_readings,
    normalize,
    read_acts,
    sentences,
    split_negated,
    without_task_statements,
    without_wish,
)
from .language.clauses import clauses
from .language.text import FUNCTION_WORDS
from .machine import fold
from .session import SessionState
from .slots import KINDS, bound_words
from .steps import TurnContext, advance, is_which
from .tables import FlowTables, with_decline
from .trace import Act, TurnResult
from .understand.base import CONTINUE, DECLINE, GOODBYE, Intent, Parse, UnderstandingState
from .values import InvalidValue, coerce, coerce_given, passed_times


class Routes:
    """Other flows the user may switch to (an Assistant's routing): intent name -> example utterances."""

    def __init__(self, routes: Mapping[str, Sequence[str]] | None = None):
        self.examples = {intent: tuple(examples) for intent, examples in (routes or {}).items()}
        self.intents = tuple(Intent(name, examples) for name, examples in self.examples.items())
        self.names = tuple(self.examples)


def understanding_state(tables: FlowTables, session: SessionState, routes: Routes) -> UnderstandingState:
    """What the user may say now (cached per flow, by the session's signature)."""
    if session.ended:
        return ended_state(tables, session)
    node = tables.nodes[session.node]
    expected: tuple[str, ...] = ()
    confirm = confirm_slot = None
    choices: tuple[Intent, ...] = ()
    if isinstance(node, RequestNode):
        for field in tables.confirm_fields[node.id]:
            if field.name in session.slots and field.name not in session.confirmed:
                confirm, confirm_slot = node.id, field.name
                break
        else:
            expected = tuple([slot.name for slot in tables.missing(node, session.slots)])
    elif isinstance(node, ConfirmNode) and node.id in session.informed and node.id not in session.answers:
        confirm = node.id
        choices = tuple(
            Intent(c.name, tuple(c.examples) + ((c.description,) if c.description else ())) for c in node.choices or ()
        )
    # "The text is the value" only for a slot the bot has asked for (or is confirming): the node's, or one of a later
    # node whose value said in passing was refused with a question ("The van comes 9 am to 5 pm. What time?").
    asked = confirm_slot or (
        session.asked
        if session.asked in expected or (session.asked is not None and session.asked not in session.slots)
        else None
    )
    key = (node.id, expected, asked, confirm, confirm_slot, routes.names)
    state = tables.understanding.get(key)
    if state is None:
        flow = tables.flow
        intents = with_decline(tables.global_intents) if expected else tables.global_intents
        if flow.examples and CONTINUE not in {intent.name for intent in intents}:
            intents += (Intent(CONTINUE, tuple(flow.examples)),)
        state = tables.understanding[key] = UnderstandingState(
            flow=flow.name,
            node=node.id,
            intents=intents + routes.intents,
            slots=tuple(tables.slots.values()),
            expected=expected,
            asked=asked,
            confirm=confirm,
            confirm_slot=confirm_slot,
            context=flow.context,
            description=flow.description,
            choices=tuple(choice.name for choice in choices),
            choice_examples=choices,
            details=tables.details,
        )
    return state


def ended_state(tables: FlowTables, session: SessionState) -> UnderstandingState:
    """After the end only a goodbye is understood (when the flow has one): no slot, no answer, no other intent."""
    key = ("ended", session.node)
    state = tables.understanding.get(key)
    if state is None:
        flow = tables.flow
        state = tables.understanding[key] = UnderstandingState(
            flow=flow.name,
            node=session.node,
            intents=tuple(intent for intent in tables.global_intents if intent.name == GOODBYE),
            slots=(),
            context=flow.context,
            description=flow.description,
        )
    return state


def check_parse(parse: Parse, state: UnderstandingState) -> None:
    """An understander's answer must be a Parse that only uses what ``state`` allows."""
    if not isinstance(parse, Parse):
        raise UnderstandingError(f"understander returned {type(parse).__name__}, not a Parse")
    if parse.intent is not None and parse.intent not in {i.name for i in state.intents}:
        raise UnderstandingError(f"understander returned intent {parse.intent!r}, not allowed at node {state.node!r}")
    for name in parse.slots:
        if state.slot(name) is None:
            raise UnderstandingError(f"understander returned unknown slot {name!r}")
    if parse.answer is not None and parse.answer not in ("yes", "no", "other"):
        raise UnderstandingError(f"understander returned answer {parse.answer!r}")


def respond(
    turn: TurnContext,
    parse: Parse,
    text: str,
    state: UnderstandingState | None,
    *,
    routes: Routes,
    routed: bool,
    now: dt.datetime,
) -> TurnResult:
    """Apply ``parse`` (understood from ``text`` in ``state``; no state at the opening) and advance."""
    session, trace, acts, flow = turn.session, turn.trace, turn.acts, turn.tables.flow
    turn.values.today = now.date()  # a date in this turn's messages names its year when it is not this one
    if session.ended:
        return after_end(turn, parse)
    started = time.perf_counter()
    if parse.intent in routes.examples:  # the user wants another flow: nothing happens here
        trace.notes.append(f"routed away: {parse.intent}")
        return TurnResult([], [], trace, session.node, session.ended, route=parse.intent)
    said = read_acts(text)
    if parse.intent == GOODBYE:
        acts.append(turn.fallback("goodbye"))
        session.ended = True
    else:
        if parse.intent == DECLINE:
            decline(turn, said)
        elif parse.intent == CONTINUE:
            trace.notes.append("asked for what this flow does: carrying on")
        elif parse.intent is not None:
            global_action(turn, parse.intent)
        given, replacing = held_changes(
            turn.tables.slots, session, parse.info, parse.slots, now
        )  # "make that 5", "8 instead of 7"
        proceed = update_slots(turn, {**replaced(turn, parse), **given}, now, replacing=replacing)
        show_meant(turn, parse)
        if parse.negated:
            rule_out(turn, parse.negated, now)
        if state is not None and state.confirm in turn.tables.guards_commit and said.deny:
            rule_out_held(turn, split_negated(text)[1])
        if state is not None and state.confirm is not None:
            parse = guard_answer(turn, parse, said, state)
        if state is not None and (parse.answer is not None or parse.choice is not None):
            apply_answer(turn, parse, state)
        trace.timings["update"] = time.perf_counter() - started
        started = time.perf_counter()
        if proceed:
            turn.asked_before, session.asked = session.asked, None
            advance(turn)
        trace.timings["advance"] = time.perf_counter() - started
        if parse.empty and said.stall and state is not None and state.asked and state.confirm is None:
            # "hang on a sec", "let me check": a pause at a question, which is asked again after it
            acts.insert(0, Act("ask", "take_your_time", sentences.take_your_time(), session.node, state.asked))
            trace.notes.append(f"slot {state.asked!r}: the user paused; asked again")
        elif (
            parse.empty
            and text.strip()
            and flow.fallbacks.out_of_scope
            and not routed
            and not (turn.reask and (not said.question or turn.missed_change))
            and not (said.only_social and (said.greet or said.thank))
            and not trace.slot_changes  # "it's not X, it's Y" changed a value: no out of scope
            and not parse.info.get("doubt")  # "new lawn, patio, borders": two values said, the question asked again
            # a bare yes to "what would you like to change?": the summary shown again is the answer, no "Sorry"
            and not ((said.plain_yes or said.plain_no) and any(act.kind == "confirm" for act in acts))
            and not states_this_task(flow, text)  # "hi, I want to activate my new card" at the card flow's question
            and not speaks_to_the_question(turn.tables.slots.get(state.asked or "") if state else None, text)
        ):  # a reply to a yes/no question that is neither, or a bare "hi there", is asked again, not out of scope
            acts.insert(0, turn.fallback("out_of_scope"))
        elif not acts:
            name = "anything_else" if flow.fallbacks.anything_else else "out_of_scope"
            if getattr(flow.fallbacks, name):
                acts.append(turn.fallback(name))
    trace.conditions = [{"edge": name, "outcome": bool(outcome)} for name, outcome in turn.machine.evaluated]
    acts.sort(key=is_which)  # the clarifying question last, after "Thanks, I have the arrival time: 8 am."
    for act in acts:
        if act.text:
            session.history.append(("bot", act.text))
    return TurnResult(acts, list(trace.tool_calls), trace, session.node, session.ended)


def states_this_task(flow: Flow, text: str) -> bool:
    """Is ``text`` nothing but a statement of the task this flow does ("I want to activate my new card" where the flow
    activates a new card: a content word of its name or of its description's first clause), or a request beside
    words of the flow's name (:func:`_requests_this_task`)? Then it is no request out of scope: the question is
    simply asked again."""
    if any(c.isdigit() for c in text):
        return False  # a value may be in it
    norm = normalize(text)
    said = {word.removesuffix("s") for word in re.findall(r"[a-z]+", norm) if word not in FUNCTION_WORDS}
    task = re.split(r"[,;:.(]", flow.description or "", maxsplit=1)[0]  # what it does, before how it does it
    own = {word.removesuffix("s") for word in re.findall(r"[a-z]+", f"{task} {flow.name.replace('_', ' ')}".casefold())}
    if not said & (own - FUNCTION_WORDS):
        return False
    rest = without_task_statements(text)  # "I need to book ..." taken out
    if without_wish(norm) == norm and rest.strip() and not read_acts(rest).only_social:
        return _requests_this_task(flow, rest)  # more than the wish: a request of the flow's own task, or not
    return True


def speaks_to_the_question(asked: Slot | None, text: str) -> bool:
    """Does ``text`` use a content word of the question asked, yes/no or free text ("it's still on the mower" to "Is
    the blade already off the mower?")? Then it tries to answer it: asked again, no "Sorry, I can only ..."."""
    if asked is None or asked.type is SlotType.categorical or not asked.ask:
        return False
    question = {word for word in re.findall(r"[a-z]+", asked.ask.casefold()) if len(word) > 3}
    said = set(re.findall(r"[a-z]+", normalize(text)))
    return bool((question - FUNCTION_WORDS) & said)


def _requests_this_task(flow: Flow, rest: str) -> bool:
    """Is ``rest`` (a message without its task statements) a request beside words of the flow's name ("something's
    gone wrong with our hot tub, can you send someone out?", "can I get my gutters done?": "hot tub" of
    hot_tub_service; no "come" of its description), every clause a request, social or naming the flow?"""
    named = {word.removesuffix("s") for word in flow.name.casefold().split("_") if word not in FUNCTION_WORDS}
    parts = [
        (read_acts(part), {word.removesuffix("s") for word in re.findall(r"[a-z]+", normalize(part))})
        for part in clauses(rest)
    ]
    return (
        any(words & named for _, words in parts)
        and any(acts.request for acts, _ in parts)
        and all(acts.request or acts.only_social or words & named for acts, words in parts)
    )


def decline(turn: TurnContext, said: Acts) -> None:
    """The user will not give the slot asked for: mark the first missing one declined.

    "I don't know (yet)" is no refusal where the flow has no other way for it (no decline branch): the
    question is asked again, never the end of the conversation.
    """
    node = turn.tables.nodes[turn.session.node]
    if isinstance(node, RequestNode):
        missing = turn.tables.missing(node, turn.session.slots)
        if not missing:
            return
        if (said.dont_know and node.id not in turn.tables.decline_nodes) or said.for_now:
            turn.say("ask", "take_your_time", sentences.take_your_time(), node.id, missing[0].name)
            turn.trace.notes.append(f"slot {missing[0].name!r}: the user does not know yet; asked again")
            return
        turn.session.declined.add(missing[0].name)
        turn.trace.notes.append(f"slot {missing[0].name!r} declined")


def guard_answer(turn: TurnContext, parse: Parse, said: Acts, state: UnderstandingState) -> Parse:
    """Commit safety: a confirmation guarding a committing action is answered yes only by a plain yes.

    A "yes" with a hedge, a negation, a question or anything else in it (from the rules or a model) is no
    answer; the values it carries were applied as a change already. A reply that changed nothing and answered
    nothing has the question asked again as "...: yes or no?".
    """
    if state.confirm not in turn.tables.guards_commit or turn.session.node != state.confirm:
        return parse
    if parse.answer == "yes" and not said.plain_yes:
        turn.trace.notes.append("a yes that is not a plain one does not commit: asked again")
        parse = dataclasses.replace(parse, answer=None)
    if parse.answer in (None, "other") and parse.choice is None and not turn.trace.slot_changes:
        turn.reask = True
        # what the rules could not account for may be a change they missed, never a bare "yes or no?"
        # A question is no change: it is answered (or said to be out of scope) and the summary's question asked
        # again; so is a reply that only says again what the summary shows ("Alex", "5pm").
        # "does that include the retest?"; not "ok?" nor a request ("can you do something about the window seat")
        # "can I pay by card on the day?": a question the flow's intents answered, whatever its words ask
        answered = parse.intent not in (None, DECLINE, CONTINUE, GOODBYE)
        asked_back = said.question and (answered or not (said.affirm or said.request))
        # A model that read no change is no proof there was none ("put the name as Stephanie Clegg, and I'll take
        # the cover after all" got a bare "yes or no?" on the model path, and the next "yes" booked the old values):
        # words left open after any reading get the whole summary and "what would you like to change?".
        missed = parse.path == "rules" or bool(parse.info.get("open"))
        # "hang on, let me just check with the others", "let me just check friday's ok for her" (Friday is held): a
        # pause, no change (none was made: see above); the summary and its question again
        paused = said.stall
        turn.missed_change = missed and not asked_back and not paused and not _restates(turn.session, parse)
        turn.asked_back = asked_back or paused  # the summary shown again with its question
    return parse


def _restates(session: SessionState, parse: Parse) -> bool:
    """Does the reply only say held values again: every value read is the one held, and every word left open
    is a word of a held value ("Zara Ahmed" at a summary naming Zara Ahmed)?"""
    if any(session.slots.get(name) != value for name, value in parse.slots.items()):
        return False
    held = {word.casefold() for value in session.slots.values() for word in re.findall(r"\w+", str(value))}
    said = [word.casefold() for word in parse.info.get("open", ())]
    return bool(parse.slots or said) and all(word in held for word in said)


def replaced(turn: TurnContext, parse: Parse) -> dict[str, str]:
    """The free-text, address, email or phone slot whose value holds the word (or the digits) the user put another in
    place of ("the house number is 14, not 12" edits "12 Mill Lane, Oxford"; "the last bit is 529 not 592" a phone
    ending 592), with its new value; nothing when no slot or several hold it."""
    swap = parse.info.get("replace")
    if not swap:
        return {}
    old, new = swap
    word = re.compile(r"(?<![\w'])" + re.escape(old) + r"(?![\w'])", re.I)
    # digits put right inside a phone number ("the last bit of the number is 529 not 592"): as many digits, once in it
    digits = re.compile(re.escape(old)) if old.isdigit() and new.isdigit() and len(old) == len(new) >= 3 else None
    holding = [
        (name, value, pattern)
        for name, value in turn.session.slots.items()
        if isinstance(value, str)
        and name not in parse.slots
        and (slot := turn.tables.slots.get(name)) is not None
        and (pattern := _edited_by(slot, word, digits)) is not None
        and len(pattern.findall(value)) == 1
    ]
    if len(holding) != 1:
        return {}
    name, value, pattern = holding[0]
    return {name: pattern.sub(lambda _: new, value)}


def _edited_by(slot: Slot, word: re.Pattern[str], digits: re.Pattern[str] | None) -> re.Pattern[str] | None:
    """What finds the part of ``slot``'s value a swap puts right: a whole word of a free text, an address or an email
    ("it's 41 Ashgrove Road, not 14"; "the email should be dan.okafor, not d.okafor"; the new value is checked), the
    digits inside a phone number; None for a slot with a pattern or of another type."""
    if slot.pattern is not None:
        return None
    if KINDS[slot.type].whole_text or slot.type in (SlotType.address, SlotType.email):
        return word
    return digits if slot.type is SlotType.phone else None


def rule_out(turn: TurnContext, negated: Mapping[str, Any], now: dt.datetime) -> None:
    """Clear the slots holding a value the user ruled out ("not at 7pm"), so that they are asked again."""
    session, tables = turn.session, turn.tables
    cleared: list[str] = []
    for name, raw in negated.items():
        try:
            value = coerce(tables.slots[name], raw, now)
        except InvalidValue:
            continue
        if name in session.slots and session.slots[name] == value:
            cleared.append(name)
    clear(turn, cleared)


def rule_out_held(turn: TurnContext, ruled_out: str) -> None:
    """At a committing confirmation, clear the slots whose held text the user named in a clause with a "not" ("no,
    not Pepper"; "it's not X, it's Y" already put Y in place): asked again, never confirmed as they were."""
    if not ruled_out:
        return
    changed = {change["slot"] for change in turn.trace.slot_changes}
    clear(
        turn,
        [
            name
            for name, value in turn.session.slots.items()
            if isinstance(value, str)
            and len(value) > 1
            and name not in changed
            and re.search(r"(?<![\w'])" + re.escape(value) + r"(?![\w'])", ruled_out, re.I)
        ],
    )


def clear(turn: TurnContext, names: Sequence[str]) -> None:
    """Clear the held slots ``names`` (not those given this turn or those a committed action used) and say so."""
    session, tables = turn.session, turn.tables
    cleared: list[str] = []
    for name in names:
        if name not in session.slots or name in turn.machine.given_now:
            continue
        if tables.commits and committed_action(turn, name) is not None:
            continue
        old = session.slots.pop(name)
        session.confirmed.discard(name)
        turn.trace.slot_changes.append({"slot": name, "old": old, "new": None})
        cleared.append(name)
    if cleared:
        turn.say("changed", "ruled_out", sentences.ruled_out([tables.slots[n].noun for n in cleared]), slot=cleared[0])
        invalidate(turn, cleared)


def global_action(turn: TurnContext, intent: str) -> None:
    action = next(ga for ga in turn.tables.flow.global_actions if ga.intent == intent)
    if action.response:
        turn.say("global", intent, turn.render(action.response, f"global action {intent!r}"))
    if action.target is not None:
        turn.machine.jump(action.target)
        turn.trace.nodes.append(action.target)


def update_slots(
    turn: TurnContext, values: Mapping[str, Any], now: dt.datetime, *, replacing: frozenset[str] = frozenset()
) -> bool:
    """Store valid values (telling the user about corrections); False when the turn must not go on. A value refused
    for a slot in ``replacing`` (the message named its held value as the one it replaces) leaves it to be asked."""
    session, trace, tables = turn.session, turn.trace, turn.tables
    flow = tables.flow
    changed: list[str] = []
    corrections: list[tuple[Slot, Any]] = []
    escalate = False
    fold_values = flow.options.case_insensitive_values
    refused: list[Slot] = []
    for name, raw in values.items():
        slot = tables.slots[name]
        try:
            value = coerce_given(tables.slots, name, raw, values, session.slots, now, refused_date(session, slot, now))
        except InvalidValue as exc:
            trace.invalid.append({"slot": name, "value": jsonable(raw), "reason": exc.message})
            if exc.question:  # two readings fit ("7:45 in the morning or in the evening?"): asked, not a try
                turn.say("invalid", f"which_{name}", exc.message, slot=name)
                continue
            session.retries[name] = session.retries.get(name, 0) + 1
            turn.say("invalid", f"invalid_{name}", refusal(turn, slot, exc.message, now, exc.sentence), slot=name)
            escalate = escalate or session.retries[name] >= flow.max_attempts
            if name in replacing and name in session.slots and not (tables.commits and committed_action(turn, name)):
                # A change refused ("make it 11 not 2" read as 23:00, out of hours): the held value is the one the
                # user does not want, so it goes and the slot is asked again (it stayed, the flow went on to the
                # next question, and the customer's "yes" booked it)
                trace.slot_changes.append({"slot": name, "old": session.slots.pop(name), "new": None})
                changed.append(name)
            continue
        session.retries.pop(name, None)
        old = session.slots.get(name)
        if name in session.slots and (old == value or (fold_values and fold(old) == fold(value))):
            continue  # the value held, said again (in other words or, with case_insensitive_values, other case)
        action = committed_action(turn, name) if tables.commits else None
        if action is not None:  # changing it would undo what cannot be undone: the held value stays
            refused.append(slot)
            trace.invalid.append({"slot": name, "value": jsonable(value), "reason": f"committed by {action!r}"})
            trace.notes.append(f"correction of {name!r} refused: action {action!r} has committed")
            continue
        if name in session.slots:
            corrections.append((slot, value))
        session.slots[name] = value
        session.declined.discard(name)
        session.confirmed.discard(name)
        trace.slot_changes.append({"slot": name, "old": old, "new": value})
        changed.append(name)
        turn.machine.given_now.add(name)
    for name, reason in passed_times(tables.slots, changed, session.slots, now):  # a new date left it behind
        trace.invalid.append({"slot": name, "value": session.slots.pop(name), "reason": reason})
        turn.say("invalid", f"invalid_{name}", refusal(turn, tables.slots[name], reason, now), slot=name)
        changed.append(name)
    if refused:
        template = flow.fallbacks.committed
        said = (
            turn.render(template, "fallbacks.committed")
            if template
            else sentences.cannot_change([s.noun for s in refused])
        )
        turn.say("fallback", "committed", said, slot=refused[0].name)
    if corrections:
        said = sentences.changed([(slot.noun, turn.values.shown(slot.name, value)) for slot, value in corrections])
        turn.say("changed", "changed", said, slot=corrections[0][0].name)
    if changed:
        invalidate(turn, changed)
    if escalate:
        trace.notes.append(f"{flow.max_attempts} invalid values in a row: escalating")
        if flow.escalate_to is not None:
            turn.machine.jump(flow.escalate_to)
            trace.nodes.append(flow.escalate_to)
            return True
        turn.cannot_continue()
        session.ended = True
        return False
    return True


def refused_date(session: SessionState, slot: Slot, now: dt.datetime) -> dt.date | None:
    """The date the user's message before this one said for date ``slot``, when it was refused (the slot has been
    tried and is not held): what a weekday said alone now is near ("the Tuesday then")."""
    if slot.type is not SlotType.date or slot.name in session.slots or not session.retries.get(slot.name):
        return None
    said = [text for role, text in session.history if role == "user"]
    dates = date_readings(said[-2], now) if len(said) >= 2 else []
    return dt.date.fromisoformat(dates[0]) if dates else None


def show_meant(turn: TurnContext, parse: Parse) -> None:
    """A value the message meant without its words (chosen by meaning) is said back at once (a noted act)."""
    chosen = parse.info.get("meaning") if parse.info else None
    if not isinstance(chosen, dict) or chosen.get("kind") != "value":
        return
    if chosen.get("slot") not in turn.machine.given_now:
        return  # refused, or the value held already
    slot = turn.tables.slots[chosen["slot"]]
    shown = turn.values.shown(slot.name, turn.session.slots[slot.name])
    turn.say("noted", "taken_as", sentences.taken_as(slot.noun, shown), slot=slot.name)


def refusal(turn: TurnContext, slot: Slot, reason: str, now: dt.datetime, sentence: str | None = None) -> str:
    """What the bot says of a refused value: the slot's ``invalid`` template (its bounds in words as
    ``{earliest}``/``{latest}``/``{open_days}``), else the refusal's own ``sentence`` (a closed day), else the
    engine's sentence with the reason."""
    if slot.invalid:
        return turn.render(slot.invalid, f"slot {slot.name!r}", bound_words(slot, now))
    return sentence or sentences.invalid_value(slot.noun, reason)


def committed_action(turn: TurnContext, name: str) -> str | None:
    """The committed action (``"commits": true``, succeeded) that a change of slot ``name`` would undo, if any.

    A change undoes an action that reads the slot (it would be reset and run again), and one the machine
    would have to pass again (the slot is asked before it and the machine is past it: the change rewinds).
    """
    session, tables = turn.session, turn.tables
    committed = [action for action in tables.commits if session.status.get(action) == "success"]
    if not committed:
        return None
    dependents = tables.dependents.get(name, ())
    for action in committed:
        if action in dependents:
            return action
    if session.node in dependents:  # the change rewinds to the node asking it
        flow = tables.flow
        after_owner = set(flow.reachable_from(tables.slot_owner[name]))
        for action in committed:
            if action in after_owner and session.node in flow.reachable_from(action):
                return action
    return None


def after_end(turn: TurnContext, parse: Parse) -> TurnResult:
    """A turn after the conversation has ended: no slot changes, no move, no tool. A goodbye is answered with
    the flow's goodbye, anything else with the ``ended`` fallback (or the engine's sentence)."""
    session, fallbacks = turn.session, turn.tables.flow.fallbacks
    turn.trace.notes.append("the conversation has ended: nothing was changed, moved or called")
    if parse.intent == GOODBYE and fallbacks.goodbye:
        act = turn.fallback("goodbye")
    else:
        said = turn.render(fallbacks.ended, "fallbacks.ended") if fallbacks.ended else sentences.conversation_ended()
        act = Act("fallback", "ended", said)
    session.history.append(("bot", act.text))
    return TurnResult([act], [], turn.trace, session.node, True)


def apply_answer(turn: TurnContext, parse: Parse, state: UnderstandingState) -> None:
    """Record the answer to the question pending when the turn began (if the machine is still there)."""
    session = turn.session
    if state.confirm is None or session.node != state.confirm:
        return  # a correction moved the machine: the question will be asked again
    if state.confirm_slot is not None:
        name = state.confirm_slot
        if any(change["slot"] == name for change in turn.trace.slot_changes):
            return  # "no, 7 people": the new value is confirmed next
        if parse.answer == "yes":
            session.confirmed.add(name)
        elif parse.answer == "no":
            session.slots.pop(name, None)
            invalidate(turn, [name])
        return
    node = turn.tables.nodes[state.confirm]
    if isinstance(node, ConfirmNode) and node.choices:
        if parse.choice is not None:
            session.answers[node.id] = parse.choice
    elif parse.answer is not None:
        session.answers[node.id] = parse.answer


def invalidate(turn: TurnContext, changed: list[str]) -> None:
    """Reset every node depending on a changed slot; rewind to the most upstream node asking one of them
    when the machine is past it (so searches run again and confirmations are asked again)."""
    session, tables, machine = turn.session, turn.tables, turn.machine
    reset: set[str] = set()
    rewind_to: str | None = None
    for name in changed:
        nodes = tables.dependents.get(name, ())
        reset.update(nodes)
        if session.node not in nodes:
            continue  # the machine has not passed the node asking this slot
        owner = tables.slot_owner[name]
        if rewind_to is None or rewind_to in tables.downstream_of(owner):
            rewind_to = owner  # the most upstream owner wins
    had_state = sorted(reset & (session.status.keys() | session.informed | session.answers.keys()))
    machine.forget(tuple(reset))
    turn.trace.reset.extend(had_state)
    if rewind_to is not None:
        machine.place(rewind_to)
        turn.trace.nodes.append(rewind_to)
