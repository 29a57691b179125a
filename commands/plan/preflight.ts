// forge plan preflight: the live gate — may this tool call run under the active plan contract?
import { defineCommand, type Outcome, type RunContext } from '../../lib/cli/declare';
import { denyReason, hookFailure } from '../../lib/claude/hook';
import { denyAnswer, parsePreToolUse, type PreToolUsePayload } from '../../lib/claude/pretooluse';
import { parseCodexPreToolUse } from '../../lib/codex/pretooluse';
import { geminiDenyAnswer, parseGeminiBeforeTool } from '../../lib/gemini/beforetool';
import { parseOpenCodeToolCall } from '../../lib/opencode/toolcall';
import { InvalidInputError, RefusedError } from '../../lib/errors';
import { workTreeRoot } from '../../lib/git/repo';
import { BREACH_CODES, checkCall, remedyOf, type CallCheck } from '../../lib/plans/check-call';
import { isExempt, mutatesByName } from '../../lib/plans/gate';
import { HOOK_AGENTS, toolInfo, toolMapText, type HookAgent } from '../../lib/plans/tools';
import { activeContract } from '../../lib/plans/contract';
import { SURFACES, type Surface } from '../../lib/plans/markdown';

/**
 * Each agent's pre-tool hook: how its payload is read, and how a refusal is answered. Codex reads
 * Claude Code's answer; forge's OpenCode plugin reads Gemini CLI's and throws its reason.
 */
const HOOKS: Record<HookAgent, { parse: (text: string) => PreToolUsePayload; deny: (reason: string) => string }> = {
  claude: { parse: parsePreToolUse, deny: denyAnswer },
  codex: { parse: parseCodexPreToolUse, deny: denyAnswer },
  gemini: { parse: parseGeminiBeforeTool, deny: geminiDenyAnswer },
  opencode: { parse: parseOpenCodeToolCall, deny: geminiDenyAnswer },
};

/** The hook's answer to an allowed call: nothing on stdout. */
function hookAllow(text: string, data: Record<string, unknown>): Outcome {
  return { data: { allowed: true, ...data }, text, next: null, raw: '' };
}

/**
 * A gate fails closed: when forge cannot decide (a payload it cannot read while a plan is active, a
 * contract it cannot read, an internal error) the call is denied with the reason Claude sees, and
 * the reason goes to stderr with the error code.
 */
async function hookDeny(agent: HookAgent, err: unknown, ctx: RunContext, what: string): Promise<Outcome> {
  const f = hookFailure(err);
  await ctx.warn(`forge plan preflight: ${f.message} [${f.code}]; the call is refused`);
  const fix = f.fix ?? ctx.cmd('plan', 'status');
  return {
    data: { allowed: false, error: f.code, reason: f.message },
    text: `refused: ${f.message}`,
    next: fix,
    raw: HOOKS[agent].deny(`${what} (${f.message}). Fix: ${fix}`),
  };
}

/** Whether a plan contract may be active here: false only when forge can tell that none is (no repository, none activated, complete). */
async function planMayBeActive(ctx: RunContext): Promise<boolean> {
  try {
    if (!(await workTreeRoot({ cwd: ctx.cwd }))) return false;
    const c = await activeContract({ store: await ctx.store() });
    return c !== null && c.status !== 'complete';
  } catch {
    return true;
  }
}

/** What --hook reads from the agent's payload; or, when the payload cannot be checked, the hook's answer already (allowed with no plan active, else denied). */
async function readHookCall({
  agent,
  payload,
  ctx,
}: {
  agent: HookAgent;
  payload: string;
  ctx: RunContext;
}): Promise<PreToolUsePayload | { answer: Outcome }> {
  const cannotRead = 'forge could not read this tool call, and a plan contract is active: a call the gate cannot check is refused';
  let p: PreToolUsePayload;
  try {
    p = HOOKS[agent].parse(payload);
  } catch (err) {
    // With no plan active every call is allowed, whatever the payload; with one, a call forge cannot read is refused.
    if (!(await planMayBeActive(ctx)))
      return { answer: hookAllow('allowed: no active plan (the hook payload was not read)', { tool: null }) };
    return { answer: await hookDeny(agent, err, ctx, cannotRead) };
  }
  // A call that changes files it does not name (a forge patch read from a file, an edit with no path) cannot be checked against the blast radius.
  // (A search or replace with no path works on its whole working directory, which checkCall's paths cover.)
  if (
    !p.paths.length &&
    (p.writes || mutatesByName(p.tool, agent)) &&
    !toolInfo(p.tool, agent).scope &&
    !isExempt(p.tool, p.command, agent) &&
    (await planMayBeActive(ctx))
  ) {
    const err = new InvalidInputError('BAD_HOOK_PAYLOAD', `the ${p.tool} call changes files but names none the gate can see`, {
      fix: 'forge plan preflight --help',
    });
    return { answer: await hookDeny(agent, err, ctx, cannotRead) };
  }
  // A shell call whose command forge cannot read (none, or not text) could do anything: refused while a plan gates.
  if (toolInfo(p.tool, agent).word === 'bash' && p.command === undefined && (await planMayBeActive(ctx))) {
    const err = new InvalidInputError('BAD_HOOK_PAYLOAD', `the ${p.tool} call carries no command line the gate can read`, {
      fix: 'forge plan preflight --help',
    });
    return { answer: await hookDeny(agent, err, ctx, cannotRead) };
  }
  return p;
}

/** What the answer says of a checked call: the plan, unit, paths and surface as judged, and the decision. */
function factsOf({ call, contract, decision }: CallCheck): Record<string, unknown> {
  return {
    plan_id: contract?.plan_id ?? null,
    unit: contract?.units[contract.current]?.id ?? null,
    paths: call.paths,
    surface: call.surface,
    posture: decision.posture,
    breach: decision.breach,
    reason: decision.reason,
    acked: decision.acked,
    budgetBreaches: decision.budgetBreaches,
  };
}

export default defineCommand({
  name: 'plan preflight',
  summary: "Gate one tool call against the active plan contract (also an agent's pre-tool hook)",
  description: [
    "Decides whether a tool call may run under the active plan contract, in this order: a call only the operator may make (one that would end, pause, resume or replace the plan — forge plan end|pause|resume|activate by any spelling, forge's MCP tools of those names, git on refs/forge/ — refused hard, PLAN_OPERATOR_ONLY); the kill switch (a paused plan refuses everything, with its reason); the hard budget caps (tokens, runs, files_changed, wall_time since activation); the parent rails (allowed_tools, allowed_paths); a shell command forge cannot judge under a unit that limits paths or surface (a command name from a variable, eval of one, code given inline to an interpreter: PLAN_BREACH_SHELL, naming the part); the surface the call reaches (artifacts_only < local_branch < remote_branch_pr); the blast radius (for calls that change their paths) — all hard refusals that nothing overrides. Then an acknowledged retry passes once. Then the current unit: a call a later unit allows is refused until forge plan advance; a call outside the unit's allowed_tools or allowed_paths is a soft refusal (plan breach: tools / plan breach: paths) that forge plan ack lets through once. An allowed call past the unit's context_tokens_expected proceeds and journals plan_budget_breach.",
    "A bash --command is read by a bash parser (unbash), every command of it — pipelines, lists, subshells, functions, loops, substitutions, sh -c strings — through its wrappers (env, command, exec, sudo, timeout, npx, xargs, find -exec…) and git's own options (-C, -c, --git-dir, --work-tree): the surface it reaches (git push, gh pr create, gh api → remote_branch_pr; git commit, reset, checkout… → local_branch), the paths it writes (redirections, tee, sed -i, cp, mv, rm, touch, git config → .git/config…) and reads, each judged by where it leads as a tool's path is. A command line that only reads (cat, head, grep, rg, ls, find, git log…) counts as the words it amounts to (read, search, ls), so a unit that allows read allows cat src/a.ts without bash. forge reads the command line, not the programs it runs.",
    "Every refusal journals plan_breach_refused and exits 1. An allowed call records the budgets it uses (its run, the files it changes, --tokens) on the state ref; with nothing to record it writes nothing. With no active plan every call is allowed. The plan's own lifecycle commands (forge plan ack|advance|status|journal|check) are never gated.",
    `The tool map: each agent's tool names in the plan's words, which allowed_tools lists (an entry is a word, mcp:<server>, or one tool's exact name). A tool the map does not know — another MCP server's, a new one — is never a hard refusal: outside the current unit it is a soft refusal (plan breach: tools) that forge plan ack lets through once, and the plan allows it by naming it (allowed_tools: [mcp:github, WebFetch]). A search or listing reads whole directories: its path, or with none the directory it runs in (the payload's cwd), must lie within the allowed paths, so a path-less Grep cannot read what a Read may not.\n${toolMapText()}`,
    '--hook claude reads a Claude Code PreToolUse payload on stdin (tool_name, tool_input.file_path / notebook_path / path / command, session_id as the run) and answers in that hook\'s JSON: nothing for an allowed call, {"hookSpecificOutput": {"permissionDecision": "deny", "permissionDecisionReason": …}} for a refused one, exit 0 both ways so Claude Code shows the reason to the model. Install it with forge plan install-hook claude.',
    '--hook codex reads a Codex CLI PreToolUse payload (tool_name, tool_input, cwd, session_id as the run): Bash — Codex\'s shell and exec_command calls — with tool_input.command; apply_patch with the patch in tool_input.command, whose *** Add File / Update File / Delete File / Move to headers are the paths it changes (relative to cwd; a patch naming no file is refused) — also when a Bash command carries the patch (apply_patch <<\'EOF\' … *** Begin Patch …), which is then checked both as a shell command and as the writes of its patch; MCP tools as mcp__<server>__<tool>. It answers as Codex reads it: nothing for an allowed call, {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": …}} for a refused one, exit 0 both ways. Install it with forge plan install-hook codex.',
    '--hook gemini reads a Gemini CLI BeforeTool payload (tool_name, tool_input.file_path / dir_path / pattern / include / command, cwd, session_id as the run; an MCP tool, mcp_<server>_<tool>, is read from its mcp_context as mcp__<server>__<tool>) and answers as Gemini CLI reads it: nothing for an allowed call, {"decision": "deny", "reason": …} for a refused one, which Gemini CLI sends the model as the tool\'s error; exit 0 both ways. Install it with forge plan install-hook gemini.',
    '--hook opencode reads what forge\'s OpenCode plugin sends for each tool.execute.before — {"tool", "sessionID", "callID", "args", "directory"}, args as OpenCode passes them (filePath, path, pattern, command, patchText) — and answers {"decision": "deny", "reason": …} for a refused call, which the plugin throws as the tool\'s error. Install it with forge plan install-hook opencode.',
    'The gate fails closed, and with nothing active it is out of the way. With no active plan (or outside a repository) every call is allowed and nothing is written, whatever the payload: not JSON, empty, not an object, no tool_name, any size. With a plan active, a call forge cannot check is denied with the reason — a payload it cannot read, an active plan whose contract on the state ref cannot be read (PLAN_UNREADABLE), an internal error — and the reason also goes to stderr with its error code; --hook exits 0 whatever happens inside it, so the deny is what the agent acts on. For the cases forge cannot answer at all (not on PATH, killed, timed out), forge plan install-hook claude sets Claude Code\'s "onFailure": "block" (Claude Code 2.1.295 or later; earlier releases let the call through).',
  ].join('\n\n'),
  args: {
    tool: {
      type: 'string',
      placeholder: 'TOOL',
      tool: 'Tool about to run (read, bash, Edit…)',
      description: 'The tool about to run (read, bash, Edit…).',
    },
    path: { type: 'array', placeholder: 'PATH', tool: 'Paths it reads or changes', description: 'A path the call reads or changes.' },
    tokens: {
      type: 'integer',
      min: 0,
      default: 0,
      placeholder: 'N',
      tool: 'Tokens it adds',
      description: 'Tokens the call adds to the context.',
    },
    command: {
      type: 'string',
      placeholder: 'CMD',
      tool: 'Its bash command line',
      description: "A bash call's command line (its surface is read from it).",
    },
    surface: {
      type: 'string',
      choices: SURFACES,
      tool: 'Surface it reaches',
      description: 'The surface the call reaches (default artifacts_only).',
    },
    writes: { type: 'boolean', tool: 'It changes its paths', description: 'The call changes its paths (implied for edit, write, patch).' },
    hook: {
      type: 'string',
      choices: [...HOOK_AGENTS],
      tool: "Read that agent's hook payload on stdin, answer in its format",
      description: "Read that agent's pre-tool hook payload on stdin and answer in its JSON.",
    },
    payload: { type: 'string', placeholder: 'JSON', anyText: true, description: 'The hook payload, instead of stdin.' },
  },
  stdinText: 'payload',
  stdinAlternatives: ['tool'],
  examples: [
    { command: 'forge plan preflight --tool edit --path src/app.ts', description: 'May the agent edit src/app.ts now?' },
    {
      command: 'forge plan preflight --tool bash --command "git push origin HEAD" --json',
      description: 'A push, checked against the surface.',
    },
    {
      command: `echo '{"tool_name":"Write","tool_input":{"file_path":"src/new.ts"},"session_id":"s1"}' | forge plan preflight --hook claude`,
      description: 'What Claude Code runs before each tool call.',
    },
    {
      command: `echo '{"tool_name":"Bash","tool_input":{"command":"git push"},"session_id":"s1","cwd":"."}' | forge plan preflight --hook codex`,
      description: 'What Codex CLI runs before each tool call.',
    },
    {
      command: `echo '{"tool_name":"replace","tool_input":{"file_path":"src/a.ts"},"session_id":"s1","cwd":"."}' | forge plan preflight --hook gemini`,
      description: 'What Gemini CLI runs before each tool call.',
    },
  ],
  errors: {
    PLAN_OPERATOR_ONLY: "the call would end, pause, resume or replace the plan, or touch refs/forge/: the operator's (hard)",
    PLAN_BREACH_SHELL: 'a shell command forge cannot judge, under a unit that limits paths or surface (hard)',
    PLAN_PAUSED: 'the kill switch is on',
    BUDGET_CAP_REACHED: 'a hard budget cap is reached',
    PLAN_BREACH_RAILS: "outside the plan's rails (hard)",
    PLAN_BREACH_SURFACE: 'the call reaches a wider surface (hard)',
    PLAN_BREACH_BLAST_RADIUS: 'a change outside the blast radius (hard)',
    PLAN_BREACH_UNIT: 'the call belongs to a later unit: advance first',
    PLAN_BREACH_TOOLS: 'a tool the current unit does not allow (soft: forge plan ack)',
    PLAN_BREACH_PATHS: 'a path outside the current unit (soft: forge plan ack)',
    MISSING_TOOL: 'neither --tool nor --hook',
    BAD_HOOK_PAYLOAD:
      'the hook payload is not a PreToolUse payload of the --hook agent (with --hook: allowed with no active plan, denied with one)',
    PLAN_UNREADABLE: 'a plan is active but its contract cannot be read from the state ref (refused: the gate fails closed)',
    NOT_A_GIT_REPO: 'outside a git repository (without --hook)',
    NO_ACTIVE_PLAN: 'the plan ended or was replaced while the call was decided',
    PLAN_ENDED: 'the plan ended while the call was decided',
  },
  exits: {
    0: 'allowed; with --hook, every answer (a refusal is the deny in the answer)',
    1: 'refused',
    2: 'invalid input (with --hook: only an invalid invocation, before the payload is read)',
  },
  mutates: true,
  mcp: { title: 'Gate a tool call', toolset: 'plans', effect: 'additive' },
  async run(args, ctx) {
    const agent = args.hook as HookAgent | undefined;
    const read = agent ? await readHookCall({ agent, payload: args.payload ?? '', ctx }) : null;
    if (read && 'answer' in read) return read.answer;
    const tool = read?.tool ?? args.tool;
    const paths = read?.paths ?? args.path;
    const command = read ? read.command : args.command;
    const writes = args.writes || read?.writes === true;
    const runId = ctx.runId ?? read?.sessionId ?? null;
    const base = read?.cwd ?? ctx.cwd;
    if (!tool)
      throw new InvalidInputError(
        'MISSING_TOOL',
        `which tool call? give --tool (or --hook ${HOOK_AGENTS.join('|')} with a payload on stdin)`,
        { fix: ctx.cmd('plan', 'preflight', '--tool', 'edit', '--path', 'src/app.ts') },
      );
    const allow = (text: string, data: Record<string, unknown> = {}) =>
      args.hook ? hookAllow(text, { tool, ...data }) : { data: { allowed: true, tool, ...data }, text, next: null };
    if (isExempt(tool, command, agent)) return allow(`allowed: ${tool} is never gated`, { exempt: true });

    let result: CallCheck;
    try {
      const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root;
      // Claude Code may run outside any repository: no repository, no contract to enforce.
      if (!root && args.hook) return allow('allowed: not in a git repository, so no plan is active');
      result = await checkCall({
        store: await ctx.store(),
        request: {
          tool,
          ...(agent ? { agent } : {}),
          paths,
          command,
          ...(read?.effects ? { effects: read.effects } : {}),
          surface: args.surface as Surface | undefined,
          writes,
          tokens: args.tokens,
          runId,
        },
        base,
        root: root ?? ctx.cwd,
        now: ctx.now(),
      });
    } catch (err) {
      // A gate that cannot read its contract must not wave calls through: deny, saying why.
      if (!args.hook) throw err;
      return hookDeny(agent!, err, ctx, 'forge could not check this call against the plan contract');
    }
    const {
      call: { paths: rel },
      contract,
      decision,
    } = result;
    const unit = contract?.units[contract.current]?.id ?? null;
    const facts = factsOf(result);
    if (decision.allowed) {
      const note = decision.budgetBreaches.length ? ` (journaled plan_budget_breach: ${decision.budgetBreaches.join('; ')})` : '';
      return allow(
        contract ? `allowed: ${tool}${rel.length ? ` on ${rel.join(', ')}` : ''} — ${decision.reason}${note}` : 'allowed: no active plan',
        facts,
      );
    }
    const remedy = remedyOf(decision, unit);
    const fix = ctx.cmd('plan', remedy.verb);
    const then = remedy.advice;
    if (args.hook)
      return {
        data: { allowed: false, tool, ...facts },
        text: `refused: ${decision.reason}`,
        next: fix,
        raw: HOOKS[agent!].deny(denyReason(decision.reason, then)),
      };
    throw new RefusedError(BREACH_CODES[decision.breach!], decision.reason, { fix, data: { allowed: false, tool, ...facts } });
  },
});
