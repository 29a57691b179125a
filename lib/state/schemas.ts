// The schema of every JSON and JSONL file forge reads back (lib/state/read.ts): compiled by `make docs` into validators.gen.ts, never loaded at run time.
import * as z from 'zod/mini';
import { SURFACES } from '../plans/markdown';
import { HOOK_AGENTS } from '../plans/tools';
import { STATUSES } from '../iter/iter';
import { CATEGORIES } from '../memory/memory';
import { PHASES, SEVERITIES } from '../logs/events';
import { LOOP_AGENTS } from '../loop/loop';
import { EVAL_AGENT_NAMES } from '../eval/agents';
import { STATE_ID, type StateKinds } from './read';

/*
 * Documents are loose objects: fields a later forge adds pass through a rewrite by this one. A field
 * an earlier forge did not write has a default where readers can do without it. Each schema is
 * checked by the compiler against the type its readers use (StateKinds).
 */

const strings = () => z.array(z.string());
/** An id that names a path (lib/errors.ts isValidId, as one pattern: JSON Schema has no other way to say it). */
const id = () => z.string().check(z.regex(STATE_ID));
const tokens = () => z.looseObject({ input: z.number(), output: z.number() });

const unit = () =>
  z.looseObject({
    id: z.string(),
    title: z.string(),
    line: z.number(),
    allowed_tools: strings(),
    allowed_paths: strings(),
    surface: z.optional(z.enum(SURFACES)),
    context_tokens_expected: z.optional(z.number()),
    verification: z.optional(z.looseObject({ kind: z.literal('command'), command: z.string() })),
    requirements: z.optional(strings()),
    advance_evidence_required: z.optional(z.looseObject({ verification_pass: z.optional(z.boolean()) })),
  });

const envelope = () =>
  z.looseObject({
    plan_id: id(),
    plan_contract_version: z.number(),
    parent_rails: z.looseObject({ allowed_tools: strings(), allowed_paths: strings(), surface: z.enum(SURFACES) }),
    parent_blast_radius: z.looseObject({
      path_globs: strings(),
      budget_caps: z.optional(
        z.looseObject({
          files_changed: z.optional(z.number()),
          runs: z.optional(z.number()),
          wall_time: z.optional(z.union([z.number(), z.string()])),
          tokens: z.optional(z.number()),
        }),
      ),
    }),
    requirements: z.optional(strings()),
  });

const breach = () =>
  z.looseObject({
    unit: z.string(),
    tool: z.string(),
    agent: z.optional(z.enum([...HOOK_AGENTS, 'forge'])),
    paths: strings(),
    breach: z.string(),
    reason: z.string(),
  });

const contract = () =>
  z.looseObject({
    plan_id: id(),
    source: z.string(),
    envelope: envelope(),
    units: z.array(unit()),
    current: z.int().check(z.nonnegative()),
    status: z.enum(['active', 'paused', 'complete', 'ended']),
    pausedReason: z.nullable(z.string()),
    activatedAt: z.string(),
    updatedAt: z.string(),
    used: z.looseObject({
      runs: strings(),
      tokens: z.number(),
      files: strings(),
      // Contracts activated before the per-unit count have none.
      unitTokens: z._default(z.number(), 0),
    }),
    pendingBreach: z.nullable(breach()),
    grant: z.nullable(breach()),
  });

const journalEntry = () =>
  z.looseObject({
    id: z.string(),
    timestamp: z.string(),
    plan_id: z.string(),
    verb: z.string(),
    kind: z.enum(['Decision', 'Observation', 'Action']),
    unit: z.nullable(z.string()),
    tool: z.optional(z.string()),
    path: z.optional(z.string()),
    reason: z.optional(z.string()),
    breach: z.optional(z.string()),
    posture: z.optional(z.enum(['soft', 'hard'])),
    evidence: z.optional(strings()),
  });

const agentPlan = () =>
  z.looseObject({
    id: id(),
    task: z.string(),
    status: z.enum(['proposed', 'running', 'paused', 'done', 'cancelled']),
    createdAt: z.string(),
    updatedAt: z.string(),
    model: z.string(),
    planner: z.string(),
    runId: id(),
    plannerTokens: tokens(),
    estimate: z.looseObject({ low: z.number(), high: z.number(), usdLow: z.nullable(z.number()), usdHigh: z.nullable(z.number()) }),
    steps: z.array(
      z.looseObject({
        id: z.string(),
        title: z.string(),
        objective: z.string(),
        files: strings(),
        symbols: strings(),
        verify: strings(),
        doneWhen: z.string(),
        dependsOn: strings(),
        // Absent in plans made before model routes; an unknown one runs as standard.
        category: z.optional(z.string()),
        status: z.enum(['pending', 'done', 'failed']),
        note: z.optional(z.string()),
        summary: z.optional(z.string()),
        attempts: z.number(),
        failure: z.optional(z.string()),
        tokens: tokens(),
      }),
    ),
    reason: z.optional(z.string()),
    checkpoint: z.optional(z.string()),
    // The files pinned with --attach (relative to the work tree's top), pinned again by --resume; absent before plan mode took --attach.
    attached: z.optional(strings()),
  });

const telemetry = () =>
  z.looseObject({
    timestamp: z.string(),
    task: z.string(),
    model: z.string(),
    endpoint: z.string(),
    turns: z.number(),
    inputTokens: z.number(),
    outputTokens: z.number(),
    estimated: z.optional(z.boolean()),
    uncachedTokens: z.optional(z.number()),
    toolCalls: z.number(),
    cacheHits: z.number(),
    // Lines written before compression was measured have none.
    compressionRatio: z._default(z.nullable(z.number()), null),
    durationMs: z.number(),
    exhausted: z.boolean(),
    cost: z.nullable(z.number()),
    category: z.optional(z.string()),
  });

const agentTurn = () =>
  z.looseObject({
    timestamp: z.string(),
    task: z.string(),
    answer: z.string(),
    files: strings(),
    toolCalls: z.number(),
    model: z.string(),
    checkpoint: z.optional(z.string()),
  });

// A session an earlier forge wrote has no active pointer: all its turns are active.
const agentSession = () =>
  z.looseObject({
    id: id(),
    createdAt: z.string(),
    updatedAt: z.string(),
    turns: z.array(agentTurn()),
    active: z.optional(z.number()),
    abandoned: z.optional(z.array(z.looseObject({ at: z.string(), after: z.number(), turns: z.array(agentTurn()) }))),
    attached: z.optional(strings()),
  });

const logEvent = () =>
  z.looseObject({
    id: z.string(),
    timestamp: z.string(),
    runId: id(),
    phase: z.enum(PHASES),
    moduleId: z.nullable(z.string()),
    event: z.string(),
    severity: z.enum(SEVERITIES),
    data: z.record(z.string(), z.unknown()),
  });

// A snapshot saved by an earlier forge may lack a field; its run id is the file's name.
const session = () =>
  z.looseObject({
    runId: z._default(z.string(), ''),
    currentPhase: z._default(z.nullable(z.string()), null),
    moduleStatuses: z._default(z.record(z.string(), z.string()), {}),
    completedCount: z._default(z.number(), 0),
    totalCount: z._default(z.number(), 0),
    lastUpdatedAt: z._default(z.string(), ''),
    updatedAt: z._default(z.string(), ''),
  });

// Its run and module ids are those of its path.
const iterState = () =>
  z.looseObject({
    runId: z._default(z.string(), ''),
    moduleId: z._default(z.string(), ''),
    attempts: z._default(
      z.array(
        z.looseObject({
          timestamp: z.string(),
          status: z.enum(STATUSES),
          score: z.nullable(z.number()),
          issues: strings(),
          rootCause: z.optional(z.string()),
        }),
      ),
      [],
    ),
    scores: z._default(z.array(z.number()), []),
    stagnant: z._default(z.boolean(), false),
    lastStatus: z._default(z.nullable(z.enum(STATUSES)), null),
    lastRootCause: z._default(z.nullable(z.string()), null),
    updatedAt: z._default(z.nullable(z.string()), null),
  });

const loop = () =>
  z.looseObject({
    loop_id: id(),
    prompt: z.string(),
    promptFile: z.nullable(z.string()),
    iteration: z.int().check(z.nonnegative()),
    max: z.int().check(z.nonnegative()),
    promise: z.nullable(z.string()),
    doneWhen: z.nullable(z.string()),
    doneWhenTimeout: z.number(),
    status: z.enum(['active', 'paused', 'complete', 'max_reached', 'cancelled']),
    reason: z.nullable(z.string()),
    driver: z.enum(['hook', 'run']),
    agent: z._default(z.nullable(z.enum(LOOP_AGENTS)), null),
    session: z.nullable(z.string()),
    command: z.nullable(strings()),
    runId: id(),
    runnerPid: z.nullable(z.int()),
    startedAt: z.string(),
    updatedAt: z.string(),
    iterations: z.array(
      z.looseObject({
        n: z.number(),
        endedAt: z.string(),
        chars: z.number(),
        digest: z.string(),
        control: z.nullable(z.enum(['complete', 'pause', 'promise'])),
        exitCode: z.optional(z.nullable(z.number())),
        doneWhen: z.optional(
          z.looseObject({ passed: z.boolean(), exitCode: z.nullable(z.number()), timedOut: z.boolean(), tail: z.string() }),
        ),
        hookBlock: z.optional(z.number()),
        accumulated: z.optional(z.looseObject({ chars: z.number(), sha1: z.string() })),
      }),
    ),
  });

// Lines of an earlier forge may lack the tags, confidence or timestamp: a lesson is still a lesson.
const memoryEntry = () =>
  z.looseObject({
    id: z.string(),
    category: z.enum(CATEGORIES),
    pattern: z.string(),
    confidence: z._default(z.number(), 0),
    tags: z._default(strings(), []),
    timestamp: z._default(z.string(), ''),
  });

const undoMarker = () =>
  z.looseObject({
    pid: z.int().check(z.positive()),
    target: z.string().check(z.regex(/^refs\//)),
    tree: z.string().check(z.regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/)),
    saved: z.string().check(z.regex(/^refs\//)),
  });

// A manifest written before temps and modes were journaled has neither.
const editManifest = () =>
  z.array(
    z.looseObject({
      path: z.string(),
      backup: z.nullable(z.string()),
      mode: z.optional(z.nullable(z.number())),
      temp: z.optional(z.string()),
    }),
  );

const evalRun = () =>
  z.looseObject({
    type: z.literal('run'),
    task: z.string(),
    run: z.int().check(z.positive()),
    agent: z.enum(EVAL_AGENT_NAMES),
    model: z.string(),
    success: z.boolean(),
    failure: z.nullable(z.string()),
    agentExit: z.nullable(z.number()),
    timedOut: z.boolean(),
    requests: z.number(),
    toolCalls: z.number(),
    promptTokens: z.number(),
    completionTokens: z.number(),
    uncachedTokens: z.number(),
    largestRequest: z.number(),
    usageReported: z.boolean(),
    looped: z.boolean(),
    reReads: z._default(z.number(), 0),
    wallMs: z.number(),
  });

const evalRecord = () =>
  z.looseObject({
    id: id(),
    startedAt: z.string(),
    endpoint: z.string(),
    model: z.string(),
    agents: z.array(z.enum(EVAL_AGENT_NAMES)),
    suite: z.string(),
    targets: z.optional(z.record(z.string(), z.looseObject({ toolCalls: z.optional(z.number()), tokens: z.optional(z.number()) }))),
    runs: z.array(evalRun()),
  });

/** Every kind of state file: what it is, for messages, and its schema, checked against the type its readers use. */
export const STATE_SCHEMAS: { [K in keyof StateKinds]: { what: string; schema: z.ZodMiniType<StateKinds[K], unknown> } } = {
  planPointer: { what: 'an active plan pointer', schema: z.looseObject({ plan_id: id() }) },
  contract: { what: 'a plan contract', schema: contract() },
  journalEntry: { what: 'a plan journal entry', schema: journalEntry() },
  agentPlanPointer: { what: 'a current agent plan pointer', schema: z.looseObject({ id: id() }) },
  agentPlan: { what: 'a forge agent plan', schema: agentPlan() },
  telemetry: { what: 'a telemetry line', schema: telemetry() },
  agentSession: { what: 'a forge agent session', schema: agentSession() },
  logEvent: { what: 'a log event', schema: logEvent() },
  session: { what: 'a session snapshot', schema: session() },
  iterState: { what: "a module's iteration state", schema: iterState() },
  loopPointer: { what: 'a current loop pointer', schema: z.looseObject({ loop_id: id() }) },
  loop: { what: 'a loop', schema: loop() },
  memoryEntry: { what: 'a memory entry', schema: memoryEntry() },
  recordId: { what: 'a record with an id', schema: z.looseObject({ id: z.string() }) },
  stamped: {
    what: 'a stamped document',
    schema: z.looseObject({ updatedAt: z.optional(z.string()), lastUpdatedAt: z.optional(z.string()) }),
  },
  undoMarker: { what: 'an undo marker', schema: undoMarker() },
  editTemps: { what: "an edit journal's temp list", schema: strings() },
  editManifest: { what: "an edit journal's manifest", schema: editManifest() },
  evalRecord: { what: 'a forge eval record', schema: evalRecord() },
};
