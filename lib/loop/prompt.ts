// Each iteration's prompt: the task, then where the loop stands — iteration, last check, lessons, how to stop.
import type { StateStore } from '../git/state';
import { iterDir, type IterState } from '../iter/iter';
import { keywords, rankEntries, readProjectMemory } from '../memory/memory';
import { checkJson, listStateDir } from '../state/read';
import * as validators from '../state/validators.gen';
import type { Loop } from './loop';

/** The run's most recently updated module state: what the last `forge validate` said. */
async function lastValidate({ store, runId }: { store: StateStore; runId: string }): Promise<IterState | null> {
  // An unreadable module state says nothing about the last check: left out, without a word.
  const listed = await listStateDir({ store, dir: iterDir(runId), check: (_, text) => checkJson({ text, file: validators.iterState }) });
  let latest: IterState | null = null;
  for (const { name, value } of listed)
    if (!latest || (value.updatedAt ?? '') > (latest.updatedAt ?? '')) latest = { ...value, moduleId: name.replace(/\.json$/, '') };
  return latest;
}

export async function iterationPrompt({ store, loop }: { store: StateStore; loop: Loop }): Promise<string> {
  const n = loop.iteration + 1;
  const lines = [loop.prompt.trimEnd(), '', '---', `forge loop ${loop.loop_id} · iteration ${n} of ${loop.max}`];
  const check = loop.iterations.at(-1)?.doneWhen;
  if (check && loop.doneWhen) {
    const tail = check.tail.trimEnd().split('\n').slice(-12).join('\n');
    lines.push(
      `Last check \`${loop.doneWhen}\`: ${check.timedOut ? 'timed out' : `failed (exit ${check.exitCode})`}${tail ? `\n${tail}` : ''}`,
    );
  }
  const validate = await lastValidate({ store, runId: loop.runId });
  const attempt = validate?.attempts.at(-1);
  if (validate && attempt) {
    const issues = attempt.issues.slice(0, 5).map((i) => `  - ${i}`);
    lines.push(
      `Last forge validate: ${validate.moduleId} attempt ${validate.attempts.length} ${attempt.status}${attempt.score !== null ? ` (score ${attempt.score})` : ''}${validate.stagnant ? ', stagnant: change approach' : ''}`,
      ...issues,
    );
  }
  // Long words only: "the" and "fix" would match every lesson.
  const words = keywords(loop.prompt).filter((w) => w.length >= 4);
  const lessons = words.length ? rankEntries({ entries: await readProjectMemory({ store }), words }).slice(0, 3) : [];
  if (lessons.length) lines.push('Lessons from forge memory:', ...lessons.map((l) => `  - [${l.category}] ${l.pattern}`));
  lines.push(`Run forge commands with --run-id ${loop.runId} so the loop sees their results.`);
  const finish = loop.promise ? `a line <promise>${loop.promise}</promise> (or FORGE_COMPLETE)` : 'a line FORGE_COMPLETE';
  lines.push(`When the task is done, end your reply with ${finish} on its own. To stop and ask for help, a line FORGE_PAUSE.`);
  return `${lines.join('\n')}\n`;
}
