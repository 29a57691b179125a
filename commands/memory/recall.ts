// forge memory recall: keyword search over project and global memory, most confident first.
import { defineCommand } from '../../lib/cli/declare';
import { NotAGitRepoError } from '../../lib/errors';
import { CATEGORIES, keywords, rankEntries, readGlobalMemory, readProjectMemory, type MemoryEntry } from '../../lib/memory/memory';

export default defineCommand({
  name: 'memory recall',
  summary: 'Find remembered patterns matching keywords, project before global',
  description:
    'Matches each keyword of the query against the pattern, category and tags of every entry (an entry matches when any keyword does; no query lists everything). Results come grouped by scope, project first, each group ordered by confidence. Read-only. No match is an informative answer, not an error. Outside a git repository only global memory is searched.',
  args: {
    query: { type: 'string', tool: 'Keywords', positional: true, rest: true, description: 'Keywords to look for.' },
    category: { type: 'string', tool: '', choices: CATEGORIES, description: 'Only entries of this category.' },
    scope: { type: 'string', tool: '', choices: ['project', 'global', 'all'], default: 'all', description: 'Which memory to search.' },
    limit: {
      type: 'integer',
      tool: 'Per scope',
      min: 1,
      default: 20,
      placeholder: 'N',
      description: 'At most this many entries per scope.',
    },
  },
  examples: [
    { command: "forge memory recall 'test command'", description: 'What does this project use to run tests?' },
    { command: 'forge memory recall --category failure_pattern --json', description: 'Every failure pattern, as NDJSON.' },
  ],
  errors: { NOT_A_GIT_REPO: '--scope project outside a git repository' },
  exits: { 0: 'searched (with or without matches)', 2: 'invalid input' },
  mutates: false,
  mcp: { title: 'Recall lessons', toolset: 'memory', effect: 'read' },
  async run(args, ctx) {
    const words = keywords(args.query ?? '');
    const groups: Array<{ scope: 'project' | 'global'; entries: MemoryEntry[] }> = [];
    const notes: string[] = [];
    if (args.scope !== 'global') {
      try {
        const entries = await readProjectMemory({ store: await ctx.store() });
        groups.push({ scope: 'project', entries: rankEntries({ entries, words, category: args.category }).slice(0, args.limit) });
      } catch (err) {
        if (!(err instanceof NotAGitRepoError) || args.scope === 'project') throw err;
        notes.push('not in a git repository: project memory skipped');
      }
    }
    if (args.scope !== 'project') {
      const entries = await readGlobalMemory({ dataHome: ctx.dataHome });
      groups.push({ scope: 'global', entries: rankEntries({ entries, words, category: args.category }).slice(0, args.limit) });
    }
    let total = 0;
    for (const g of groups) {
      total += g.entries.length;
      for (const e of g.entries)
        await ctx.emit({ type: 'memory', scope: g.scope, ...e }, `${g.scope.padEnd(7)} [${e.category}] ${e.confidence} — ${e.pattern}`);
    }
    const what = args.query ? `'${args.query}'` : 'anything';
    const counts = Object.fromEntries(groups.map((g) => [g.scope, g.entries.length]));
    const summary = total
      ? `${total} match${total === 1 ? '' : 'es'} for ${what} (${groups.map((g) => `${g.scope} ${g.entries.length}`).join(', ')})`
      : `no memory matches ${what}${args.category ? ` in category ${args.category}` : ''}`;
    return {
      data: { query: args.query ?? '', matches: total, ...counts, ...(notes.length ? { notes } : {}) },
      text: [...notes, summary].join('\n'),
      next: null,
    };
  },
});
