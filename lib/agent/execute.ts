// One reply's tool calls, run: repeats answered from memory, the gate asked, the tool run, edits that undo each other and loops noticed.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ChatMessage, ToolCall, ToolSchema } from './chat-types';
import { isStub, staleStub, wasCut } from './context';
import { parseArguments, type ParsedArguments } from './replies';
import type { AgentEvent, AgentRun, AgentStop, ToolCallGuards } from './run-state';
import type { AgentTools } from './tools';

/** The read call's file as size and mtime, or null when it cannot be stat'ed. */
async function fileVersion(cwd: string, args: string): Promise<string | null> {
  try {
    const path = (JSON.parse(args) as { path?: unknown }).path;
    if (typeof path !== 'string') return null;
    const s = await stat(resolve(cwd, path));
    return `${s.size}:${s.mtimeMs}`;
  } catch {
    return null;
  }
}

/** The file tools (on_edit hooks follow them); write and edit name their one file in `path`. */
const EDITS_FILES = new Set(['write', 'edit', 'patch', 'replace']);

/** Tools after which earlier results may be stale. */
const MAY_CHANGE_FILES = new Set(['write', 'edit', 'patch', 'replace', 'bash']);

/** The same call, argument order and spacing aside. */
function callKey(name: string, raw: string): string {
  const parsed = parseArguments(raw);
  if (!parsed.ok) return `${name} ${raw}`;
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, x]) => [k, sorted(x)]),
          )
        : v;
  return `${name} ${JSON.stringify(sorted(parsed.value))}`;
}

async function contentHash(path: string): Promise<string | null> {
  const data = await readFile(path).catch(() => null);
  return data ? createHash('sha1').update(data).digest('hex') : null;
}

/** What a run remembers between calls, to answer repeats and notice loops. */
export interface RunMemory {
  // Reads by arguments and the file's size and mtime: a re-read of an unchanged file is not re-run,
  // even after edits elsewhere cleared the identical-call record.
  reads: Map<string, string>;
  // Calls since the last one that may have changed files: the turn each was first made, how often, and the call whose result the model was given.
  repeats: Map<string, { turn: number; count: number; callId: string; ok: boolean }>;
  // Each edited file's contents this task, by hash: going back to one is undoing an edit.
  versions: Map<string, Array<{ hash: string; turn: number }>>;
  undone: number;
  // Results since the last change, as sets of lines, and how many in a row were nearly one of them.
  recent: Array<{ turn: number; name: string; lines: Set<string> }>;
  // Reads by file, the id of each call: an edit of the file makes their results stale.
  readsOf: Map<string, string[]>;
  near: number;
}

/** What every call of a run shares: where it runs, the tools and their schemas, compressed results for recall. */
/** Whether the result of call `id` is still in the messages as it was given (not compressed, cut or dropped). */
function shownWhole(messages: readonly ChatMessage[], id: string): boolean {
  const m = messages.find((x) => x.role === 'tool' && x.tool_call_id === id);
  return m !== undefined && typeof m.content === 'string' && !isStub(m.content) && !wasCut(m.content);
}

export interface CallScope {
  /** The conversation as it will be sent: what the model has before it. */
  messages: ChatMessage[];
  cwd: string;
  schemas: ToolSchema[];
  archive: Map<string, { text: string }>;
  tools: AgentTools;
  guards: ToolCallGuards;
  run: AgentRun;
  memory: RunMemory;
}

/** A call's result, or the reason the run must end. */
type CallOutcome = { content: string; ok: boolean } | { stop: AgentStop };

/** A call run for the first time since nothing changed: its arguments read, the gate asked, the tool (or recall) run. */
async function runFresh({
  call,
  parsed,
  scope,
}: {
  call: ToolCall;
  parsed: ParsedArguments;
  scope: CallScope;
}): Promise<{ args: Record<string, unknown>; ok: boolean; content: string; refused: boolean }> {
  const name = call.function.name;
  if (!parsed.ok) {
    const schema = scope.schemas.find((s) => s.function.name === name);
    return {
      args: {},
      ok: false,
      refused: false,
      content: `Error: the arguments of ${name} are not a JSON object: ${parsed.reason}. Sent: ${call.function.arguments.slice(0, 200)}${schema ? `\nThe arguments ${name} takes: ${JSON.stringify(schema.function.parameters)}` : ''}`,
    };
  }
  const args = unwrapped(
    parsed.value,
    scope.schemas.find((s) => s.function.name === name),
  );
  // recall only reads this run's own archive: nothing for a contract to gate.
  const refusal = name !== 'recall' && scope.guards.gate ? await scope.guards.gate(name, args) : null;
  if (refusal !== null) return { args, ok: false, refused: true, content: refusal };
  let result: { ok: boolean; text: string };
  if (name === 'recall') {
    const recalled = scope.archive.get(String(args.id));
    result = recalled
      ? { ok: true, text: recalled.text }
      : {
          ok: false,
          text: `Error: no compressed result '${String(args.id)}' (ids: ${[...scope.archive.keys()].join(', ') || 'none yet'})`,
        };
  } else result = await scope.tools.run(name, args);
  const content = parsed.repaired
    ? `[The arguments were not valid JSON; read them as ${JSON.stringify(args).slice(0, 200)}.]\n${result.text}`
    : result.text;
  return { args, ok: result.ok, refused: false, content };
}

/** Keys some models wrap a call's arguments in (`{"args": {…}}`). */
const WRAPPERS = new Set(['args', 'arguments', 'parameters', 'input', 'params']);

/** The arguments themselves when the model wrapped them in one key the tool does not take. */
function unwrapped(args: Record<string, unknown>, schema: ToolSchema | undefined): Record<string, unknown> {
  const keys = Object.keys(args);
  const inner = args[keys[0]!];
  const takes = (schema?.function.parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  if (keys.length !== 1 || !WRAPPERS.has(keys[0]!) || keys[0]! in takes) return args;
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : args;
}

/** After an edit landed: a note when it put the file back as it was earlier (undoing the model's own edit), or the end of the run the second time. */
async function noteUndo({ path, shown, scope }: { path: string; shown: string; scope: CallScope }): Promise<string | { stop: AgentStop }> {
  const { memory, run } = scope;
  const hash = await contentHash(path);
  const seen = memory.versions.get(path)!;
  const earlier = hash ? seen.slice(0, -1).find((v) => v.hash === hash) : undefined;
  if (hash) seen.push({ hash, turn: run.turns });
  if (!earlier) return '';
  if (++memory.undone >= 2)
    return {
      stop: {
        code: 'LOOP_DETECTED',
        message: `the model's edits keep undoing each other: '${shown}' went back to an earlier content again (turn ${run.turns})`,
      },
    };
  return `\n[This put '${shown}' back as it was ${earlier.turn ? `after turn ${earlier.turn}` : 'before the task'}: it undoes your own edit. Do not go back and forth; a second time ends the run.]`;
}

/**
 * One tool call: a third identical call with nothing changed ends the run; the second gets a stub; a
 * re-read of an unchanged file is served from cache; anything else runs (runFresh), then the files it
 * changed are noted, on_edit hooks run, and what may now be stale is forgotten.
 */
async function executeCall({
  call,
  scope,
  onEvent,
}: {
  call: ToolCall;
  scope: CallScope;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<CallOutcome> {
  const { run, memory, cwd, guards } = scope;
  const name = call.function.name;
  const key = callKey(name, call.function.arguments);
  const version = name === 'read' ? await fileVersion(cwd, call.function.arguments) : null;
  let repeat = memory.repeats.get(key);
  // A result the budget has since compressed, cut or dropped is no longer before the model: the call is served again, not called a repeat.
  if (repeat && !shownWhole(scope.messages, repeat.callId)) {
    memory.repeats.delete(key);
    repeat = undefined;
  }
  if (repeat && repeat.count >= 2) {
    await onEvent({ type: 'tool_call', name, arguments: call.function.arguments, cached: true });
    return {
      stop: {
        code: 'LOOP_DETECTED',
        message: `the model made the same call a third time with nothing changed since turn ${repeat.turn}: ${name} ${call.function.arguments.slice(0, 200)}`,
      },
    };
  }
  const cachedRead = repeat ? undefined : version ? memory.reads.get(`${key} ${version}`) : undefined;
  await onEvent({ type: 'tool_call', name, arguments: call.function.arguments, cached: repeat !== undefined || cachedRead !== undefined });
  run.toolCalls++;
  if (repeat) {
    // The second identical call: a stub, not the whole result again.
    repeat.count++;
    run.cacheHits++;
    // The stub fails as the first call did: a failed call repeated is no success.
    return {
      ok: repeat.ok,
      content: `[Same call as turn ${repeat.turn}, and nothing changed since: its result is the same${repeat.ok ? '' : ' (it failed)'} and is not repeated here. Do something different, or answer; a third identical call ends the run.]`,
    };
  }
  if (cachedRead !== undefined) {
    run.cacheHits++;
    noteRead({ args: call.function.arguments, callId: call.id, scope });
    memory.repeats.set(key, { turn: run.turns, count: 1, callId: call.id, ok: true });
    return { ok: true, content: `[Unchanged since you read it; served from cache.]\n${cachedRead}` };
  }
  const parsed = parseArguments(call.function.arguments);
  const named = parsed.ok && EDITS_FILES.has(name) && typeof parsed.value.path === 'string' ? parsed.value.path : null;
  const path = named === null ? null : resolve(cwd, named);
  if (path && !memory.versions.has(path)) {
    const hash = await contentHash(path);
    memory.versions.set(path, hash ? [{ hash, turn: 0 }] : []);
  }
  const fresh = await runFresh({ call, parsed, scope });
  let { content } = fresh;
  if (fresh.refused) run.refused++;
  if (fresh.ok && named !== null && !run.files.includes(named)) run.files.push(named);
  if (fresh.ok && path) {
    const note = await noteUndo({ path, shown: named!, scope });
    if (typeof note !== 'string') return note;
    content += note;
    retireReads({ path, shown: named!, by: name, scope });
  }
  // on_edit hooks follow the file tools that changed something (they refuse whole or land
  // whole); not bash, which mostly reads and would pay a type-check for every `ls`.
  if (fresh.ok && EDITS_FILES.has(name) && guards.afterChange) content += await guards.afterChange(name, fresh.args);
  // A call that may change files makes every earlier result possibly stale: a read after an
  // edit, or the tests after a fix, must run again. Only repeats with nothing in between count.
  // forge's file tools change all or nothing: a failed one changed nothing. bash may have, whatever its exit.
  if (MAY_CHANGE_FILES.has(name) && (fresh.ok || name === 'bash')) {
    memory.repeats.clear();
    memory.recent = [];
    memory.near = 0;
  } else {
    const near = nearRepeat({ name, content, scope });
    if (typeof near !== 'string') return near;
    content += near;
  }
  memory.repeats.set(key, { turn: run.turns, count: 1, callId: call.id, ok: fresh.ok });
  if (version && fresh.ok) {
    memory.reads.set(`${key} ${version}`, content);
    noteRead({ args: call.function.arguments, callId: call.id, scope });
  }
  return { ok: fresh.ok, content };
}

/** Records a read of a file, to retire when the file is edited. */
function noteRead({ args, callId, scope }: { args: string; callId: string; scope: CallScope }): void {
  const parsed = parseArguments(args);
  if (!parsed.ok || typeof parsed.value.path !== 'string') return;
  const path = resolve(scope.cwd, parsed.value.path);
  const list = scope.memory.readsOf.get(path) ?? [];
  list.push(callId);
  scope.memory.readsOf.set(path, list);
}

/**
 * After an edit of `path`, its earlier reads are stale: each is replaced by a line saying so, so a
 * one-call-per-turn run does not carry every file's old text to the end. The edit's own result
 * holds what the model needs next (the lines it left, with their anchors). The read just before the
 * edit is the end of the previous request, so a prefix cache loses only that tail.
 */
function retireReads({ path, shown, by, scope }: { path: string; shown: string; by: string; scope: CallScope }): void {
  for (const callId of scope.memory.readsOf.get(path) ?? []) {
    const at = scope.messages.findIndex((m) => m.role === 'tool' && m.tool_call_id === callId);
    const m = scope.messages[at];
    if (m?.role !== 'tool' || isStub(m.content)) continue;
    scope.messages[at] = {
      ...m,
      content: staleStub(shown, `${by} at turn ${scope.run.turns}`),
    };
  }
  scope.memory.readsOf.delete(path);
}

/** Results this alike count as the same finding: a read window moved by a line, a search varied by a character. */
const NEAR = 0.8;
/** Results shorter than this many lines are too small to call alike (`no matches`). */
const NEAR_MIN_LINES = 5;

/**
 * A near-miss loop: calls that differ but keep returning nearly the same result with nothing
 * changed in between. The second in a row is pointed out, the third ends the run.
 */
function nearRepeat({ name, content, scope }: { name: string; content: string; scope: CallScope }): string | { stop: AgentStop } {
  const { memory, run } = scope;
  // The hints after a result (Next: …) name where to go next: they differ by design, the finding does not.
  const lines = new Set(content.split('\n').filter((l) => l.trim() && !/^(Next|Or|Fix): /.test(l)));
  const alike = lines.size >= NEAR_MIN_LINES ? memory.recent.find((r) => r.name === name && similarity(r.lines, lines) >= NEAR) : undefined;
  memory.recent.push({ turn: run.turns, name, lines });
  if (!alike) {
    memory.near = 0;
    return '';
  }
  if (++memory.near >= 3)
    return {
      stop: {
        code: 'LOOP_DETECTED',
        message: `the model's ${name} calls keep returning nearly the same result with nothing changed (since turn ${alike.turn})`,
      },
    };
  return memory.near === 2
    ? `\n[Nearly the same result as turn ${alike.turn}'s, and nothing changed since: calls that vary a little find nothing new. Do something different, or answer; one more ends the run.]`
    : '';
}

/** Shared lines over all lines of the two (Jaccard). */
function similarity(a: Set<string>, b: Set<string>): number {
  let shared = 0;
  for (const l of a) if (b.has(l)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The reply's calls in order, each result appended to the messages; the reason the run must end, or null. */
export async function runCalls({
  calls,
  scope,
  messages,
  toolNames,
  onEvent,
}: {
  calls: ToolCall[];
  scope: CallScope;
  messages: ChatMessage[];
  toolNames: Map<string, string>;
  onEvent: (e: AgentEvent) => Promise<void>;
}): Promise<AgentStop | null> {
  const first = new Map<string, string>();
  for (const call of calls) {
    toolNames.set(call.id, call.function.name);
    // The same call twice in one reply runs once: the others are told so, and are no repeat of it.
    const key = callKey(call.function.name, call.function.arguments);
    const same = first.get(key);
    if (same !== undefined) {
      messages.push({
        role: 'tool',
        tool_call_id: call.id,
        content: `[The same call as ${same} in this reply: it ran once, its result is there.]`,
      });
      continue;
    }
    first.set(key, call.id);
    const outcome = await executeCall({ call, scope, onEvent });
    if ('stop' in outcome) return outcome.stop;
    await onEvent({ type: 'tool_result', name: call.function.name, ok: outcome.ok, chars: outcome.content.length });
    messages.push({ role: 'tool', tool_call_id: call.id, content: outcome.content });
  }
  return null;
}
