// forge memory save: persist a learned pattern to project or global memory.
import { defineCommand } from '../../lib/cli/declare';
import { buildEntry, CATEGORIES, keywords, saveGlobalMemory, saveProjectMemory } from '../../lib/memory/memory';

export default defineCommand({
  name: 'memory save',
  summary: 'Save a learned pattern (convention, failure, test command…) to memory',
  tool: 'Save a lesson for later runs',
  description:
    'Appends one compact lesson to memory: project scope on the state ref (.forge/memory/project/, one commit per save) or global scope in $XDG_DATA_HOME/forge/memory/global/. Either is kept in 256 bucket files by the hash of category and pattern, so a save reads and extends one bucket, whatever memory holds; a store an earlier forge kept in one file (project.jsonl, global.jsonl) is read as it is and converted into buckets by the next save, every line kept. A pattern already saved under the same category (compared case-insensitively) is skipped and reported as a duplicate, so saving the same lesson twice keeps one entry. Entries over 1 KB are refused: memory holds lessons, not dumps.',
  args: {
    pattern: { type: 'string', tool: 'The lesson', positional: true, required: true, description: 'The lesson, in one or two sentences.' },
    category: { type: 'string', tool: '', choices: CATEGORIES, default: 'convention', description: 'What kind of lesson it is.' },
    confidence: {
      type: 'number',
      tool: '',
      min: 0,
      max: 1,
      default: 0.7,
      placeholder: 'N',
      description: 'How sure the lesson is, from 0 to 1.',
    },
    tag: { type: 'array', tool: 'Keyword for recall', placeholder: 'TAG', description: 'A keyword recall should match.' },
    scope: { type: 'string', tool: '', choices: ['project', 'global'], default: 'project', description: 'Where to save it.' },
  },
  examples: [
    {
      command: "forge memory save 'pnpm vitest --run; watch mode hangs in CI' --category test_command --confidence 0.9",
      description: 'Save a test command lesson to project memory.',
    },
    { command: 'echo \'{"pattern":"use pnpm","category":"test_command"}\' | forge memory save', description: 'The same through NDJSON.' },
  ],
  errors: {
    ENTRY_TOO_LARGE: 'the serialized entry exceeds 1 KB',
    EMPTY_PATTERN: 'the pattern is blank',
    NOT_A_GIT_REPO: 'project scope outside a git repository',
    STATE_CONFLICT: 'the state ref kept moving for a minute',
  },
  exits: { 0: 'saved, or skipped as a duplicate', 1: 'the state could not be updated', 2: 'invalid input or not a git repository' },
  mutates: true,
  mcp: { title: 'Save a lesson', toolset: 'memory', effect: 'additive', idempotent: true },
  async run(args, ctx) {
    const entry = await buildEntry({
      pattern: args.pattern,
      category: args.category,
      confidence: args.confidence,
      tags: args.tag,
      now: ctx.now(),
    });
    const result =
      args.scope === 'global'
        ? await saveGlobalMemory({ dataHome: ctx.dataHome, entry })
        : await saveProjectMemory({ store: await ctx.store(), entry });
    // The hint recalls the entry by its first distinctive words.
    const words = keywords(result.entry.pattern);
    const distinctive = words.filter((w) => w.length > 3 || /\d/.test(w));
    const query = (distinctive.length ? distinctive : words).slice(0, 3).join(' ');
    const text = result.saved
      ? `saved to ${result.scope} memory [${result.entry.category}]: ${result.entry.pattern}`
      : `duplicate pattern already in ${result.scope} memory [${result.entry.category}], skipped: ${result.entry.pattern}`;
    return {
      data: { saved: result.saved, duplicate: !result.saved, scope: result.scope, entry: result.entry },
      text,
      next: ctx.cmd('memory', 'recall', query, ...(result.scope === 'global' ? ['--scope', 'global'] : [])),
    };
  },
});
