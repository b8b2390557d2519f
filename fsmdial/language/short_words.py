"""Short English words (two to four letters) people say beside a value: a reference reader never takes one of them
for a code of letters ("is", "thanks", "reg", "min"), and takes one written in capitals ("OK", "PM") for neither.

The list is data: the lower-case words of two to four letters said five times or more in the user turns of the
Schema-Guided Dialogue corpus (train and dev), STAR, and the MultiWOZ user turns of clembench's task data, and a few
more said around references ("reg", "ref", "pls", "thx", "mate"; units: "min", "kg"). Codes that are frequent there
("nyc", "bmw") are words here: a reference beside them is read without them, or not at all.
"""

from __future__ import annotations

__all__ = ["COMMON_WORDS"]

COMMON_WORDS = frozenset(
    """
    able acct add adn age ago ah aha air all alot also am an and any appt apt are area arm art as asap ask at
    ate aunt away baby back bad bags ball band bank bar bars bath bay be beat bed beds been beer ben best bet
    big bike bill bird bit blog blow blue bmw bomb book born boss bot both box boy br bro btw bug bugs bus bush
    busy but buy by bye ca cab cafe cake call calm came can cant car card care cars case cash cast cat cats chat
    city club clue code cold com come cook cool cost crap crew cut cute dad damn dang darn date day days dead
    deal dear deck did die died diet dine dish do doc doe does dog dogs don done dont door dope down dr drop dry
    dude due dumb each east easy eat eh else end er erm etc even ever ex ext eye eyes face fan far fast fax fear
    fee feel fees feet fell felt few file fill film find fine fire fish fit five fix flat fly fo fond food fool
    foot for form forv four fran free from full fun game gave geez get gets gift girl give glad go god goes gone
    good gosh got grab guy guys gym ha had haha hair half hand hang hard has hat hate have he head hear heat
    heck hell help her here hey hi high hill him hip his hit hm hmm hmmm hold home hook hop hope host hot hour
    how hte huge huh hurt ice id idea if ill im in info inn into iron is iss it its jane job john join joke jump
    june just keep kept kid kids kill kind knew know la lack lady land las last late law laws lazy left leg less
    let lets liek life like list lit live lock lol long look los lose lost lot lots loud love low luck lyft mad
    made mail main make mall man many mark mask mate math may me meal mean meds meet menu mess met mind mine
    miss mob mom mood more most move mt much mum must my nah name nap near need new news next nice nine no non
    none noon nope nor nose not note now nr num nyc odd of off oh ok okay old omg on once one ones only onto ooh
    oops open or ou our ours out over own pack paid pain park part pass past pay per pet pets pick pie pin plan
    plate play pls plus plz pm poem pool poor pop post pub pull push put quit rain ran rare rate rats read real
    red ref refs reg rely rent rest rich rid ride road rock roll room row rsvp rude ruin run rush sad safe said
    same san save saw say says seat sec see seem seen sell send sent set sexy she ship shop shot show sick side
    sign sir sit site six size skip sky slot slow snow so some son song sons soon sooo sore sort soul spot star
    stay step stop such suit suite sun sure swap ta take talk taxi team teh tel tell ten test text tha thai than
    that the them then they this thru thx ti til till time tips to told ton too took top tour town trip true try
    turn tv two type typo uber ugh ugly uh um umm unit up ur us use used user van very via view vs wait wake
    walk want warm was way we wear week well went were west wet what when who why wife wifi will win wind wine
    wish with woke wont woot word work worm wow ya yay yea yeah year yep yes yet yo york you your yours yuck yup
    zero
    """.split()
    + "min mins sec secs mph kg lbs ft cm".split()
)
