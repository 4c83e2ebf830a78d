/**
 * English irregular verb forms and their base ("broken" → break, "sent" → send), so a stem is the
 * same for every form of a verb: Porter's algorithm strips suffixes and cannot know these. General
 * English grammar, written from common irregular-verb tables; forms that are mostly other words
 * ("left", "bound", "shot", "lay", "saw", "lead") are left out.
 */
const TABLE = `
arise arose arisen; awake awoke awoken; become became; begin began begun; bend bent; bind bound;
bite bit bitten; blow blew blown; break broke broken; bring brought; build built; buy bought;
catch caught; choose chose chosen; come came; dig dug; draw drew drawn; drink drank drunk;
drive drove driven; eat ate eaten; fall fell fallen; feed fed; feel felt; fight fought; find found;
flee fled; fly flew flown; forbid forbade forbidden; forget forgot forgotten; forgive forgave forgiven;
freeze froze frozen; get got gotten; give gave given; go went gone; grow grew grown; hang hung;
hear heard; hide hid hidden; hold held; keep kept; know knew known; lose lost; make made; mean meant;
meet met; overwrite overwrote overwritten; pay paid; rebuild rebuilt; rerun reran; rewrite rewrote rewritten;
ride rode ridden; ring rang rung; rise rose risen; run ran; say said; see seen; seek sought; sell sold;
send sent; shake shook shaken; show shown; shrink shrank shrunk; sing sang sung; sink sank sunk;
sleep slept; speak spoke spoken; spend spent; spin spun; stand stood; steal stole stolen; stick stuck;
strike struck stricken; swear swore sworn; swing swung; take took taken; teach taught; tear tore torn;
tell told; think thought; throw threw thrown; understand understood; undo undid undone; wake woke woken;
wear wore worn; win won; withdraw withdrew withdrawn; write wrote written`;

/** Irregular form → base form. */
export const IRREGULAR_FORMS: ReadonlyMap<string, string> = new Map(
  TABLE.split(';').flatMap((entry) => {
    const [base, ...forms] = entry.trim().split(/\s+/);
    return forms.map((f) => [f, base] as [string, string]);
  }),
);
