// Whether an answer ends the task: a task that asks for a change is done only by a change, or by the model saying why none is needed; an edit pasted into the answer is an edit still to make.

/** Words before the request itself (`please`, `can you`…), skipped when reading what the task asks. */
const POLITE =
  /^(?:(?:please|kindly|now|then|ok(?:ay)?|hey|so|and|also|just|go ahead and|can you|could you|would you|will you|i need you to|i want you to|help me|let's|lets)[\s,:]+)+/i;

/** A task whose first word (after politeness) is one of these asks for a change to the files. */
const CHANGE_VERBS = new Set(
  (
    'add append apply bump change clean cleanup comment convert correct create delete disable document drop edit enable ' +
    'extract fix format handle implement inline insert introduce make merge migrate modify move patch port refactor remove ' +
    'rename reorder replace rewrite set simplify sort split strip support translate update upgrade wire write'
  ).split(' '),
);

/** A task that starts with one of these asks a question or for a reading, not for a change. */
const QUESTION_WORDS = new Set(
  (
    'what why how where when which who whose whom does do did is are was were has have had should would will may might ' +
    'explain describe summarize summarise tell show list review check find look search read compare count diagnose investigate analyze analyse'
  ).split(' '),
);

/**
 * Writing that is the answer itself, not a file: `write a commit message`, `draft a summary of …`.
 * A verb of writing followed, within a few words, by one of these asks for text in the reply.
 */
const TEXT_ANSWERS =
  /^(?:write|draft|compose|suggest|propose|give)\b(?:\s+\S+){0,3}?\s+(?:commit messages?|summary|summaries|descriptions?|explanations?|answers?|reply|replies|emails?|titles?|subject lines?|names?)\b/i;

/** How far into the task a verb of change is looked for when the first word is neither (`In src/a.ts change …`). */
const VERB_WINDOW = 6;

/**
 * Whether the task asks for a change to the files (rather than a question, a review, an
 * explanation or a text the reply is: a commit message): its first word, after please / can you and the like, is a verb of change; or that
 * word is no question word, the task is no question, and a verb of change comes within its first words.
 */
export function asksForChange(task: string): boolean {
  const request = task.trim().replace(POLITE, '');
  const words = request
    .toLowerCase()
    .split(/[\s,.:;!?()"'`]+/)
    .filter(Boolean);
  if (TEXT_ANSWERS.test(request)) return false;
  if (CHANGE_VERBS.has(words[0] ?? '')) return true;
  if (QUESTION_WORDS.has(words[0] ?? '') || /\?\s*$/.test(request)) return false;
  return words.slice(1, VERB_WINDOW).some((w) => CHANGE_VERBS.has(w));
}

/**
 * An answer that says why no change was needed: the thing is already so, there is nothing of the
 * kind, or no change is needed. Recognised in English; anything else is not an answer to a task
 * that asked for a change and left the files as they were.
 */
const NOTHING_NEEDED = [
  // "already" of the files, never of the model's own work ("I have already changed it" claims a change).
  /\b(?:is|are|was|were|it's|that's)\s+already\b/i,
  /\balready\s+(?:exists?|present|there|in place|correct|set|defined|uses?|contains?|says?|reads?|has|have|does|returns?|matches|up to date)\b/i,
  /\bno (?:code )?changes? (?:is |are |was |were )?(?:needed|necessary|required)\b/i,
  /\bnothing (?:needs|needed|had|has) to (?:be )?(?:change|changed|done|fix|fixed|remove|removed)\b/i,
  /\bnothing to (?:change|do|fix|remove|update)\b/i,
  /\b(?:there (?:is|are|was|were)|i found|found) no\b/i,
  /\b(?:does|do|did)(?:n't| not) (?:exist|need|contain|appear|occur)\b/i,
  /\bno (?:such|matching|occurrences?|instances?|matches)\b/i,
  /\b(?:not|never) (?:needed|necessary|required|present|found)\b/i,
];

export function saysNothingNeeded(answer: string): boolean {
  return NOTHING_NEEDED.some((re) => re.test(answer));
}

/** Edits written into an answer in a form forge patch reads: a unified diff, SEARCH/REPLACE blocks, a Codex patch envelope. */
export function pastedEdits(text: string): boolean {
  const unified = /^--- \S.*\n\+\+\+ \S/m.test(text) && /^@@ /m.test(text);
  const blocks = /^<{5,9} SEARCH\s*$/m.test(text) && /^>{5,9} REPLACE\s*$/m.test(text);
  const envelope = /^\*\*\* Begin Patch\s*$/m.test(text) && /^\*\*\* (?:Update|Add|Delete) File: /m.test(text);
  return unified || blocks || envelope;
}
