// Installs forge's git hooks: a pre-push hook that runs `forge plan check`, chaining any hook already there.
import { chmod, readFile, rename, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ForgeError, NotAGitRepoError } from '../errors';
import { shellQuote } from '../quote';
import { runGit } from './exec';

/** Marks a hook as forge's, so installing again changes nothing. */
export const HOOK_MARKER = '# installed by: forge hooks install pre-push';

export function prePushScript({ forgeBin }: { forgeBin: string }): string {
  return `#!/bin/sh
${HOOK_MARKER}
# Refuses a push whose plan contracts or module plans do not pass \`forge plan check\`.
# A hook that was here before runs first, as pre-push.local, with the same arguments and input.
input=$(cat)
if [ -x "$0.local" ]; then
  printf '%s\\n' "$input" | "$0.local" "$@" || exit $?
fi
forge=$(command -v forge || echo ${shellQuote(forgeBin)})
if ! "$forge" plan check; then
  echo "pre-push: forge plan check failed — fix the plans above (or push with --no-verify to skip)" >&2
  exit 1
fi
`;
}

export interface InstallResult {
  path: string;
  installed: boolean;
  /** Where a hook that was already there now lives (it still runs first). */
  chained: string | null;
}

/** Installs the pre-push hook in the repository's hooks directory (core.hooksPath respected). */
export async function installPrePush({ cwd, forgeBin }: { cwd: string; forgeBin: string }): Promise<InstallResult> {
  const r = await runGit({ cwd, args: ['rev-parse', '--path-format=absolute', '--git-path', 'hooks'] });
  if (r.code !== 0) throw new NotAGitRepoError(cwd);
  const dir = r.stdout.toString('utf8').trim();
  const path = join(dir, 'pre-push');
  const existing = await readFile(path, 'utf8').catch(() => null);
  if (existing?.includes(HOOK_MARKER)) return { path, installed: false, chained: null };
  await mkdir(dir, { recursive: true });
  let chained: string | null = null;
  if (existing !== null) {
    chained = `${path}.local`;
    if ((await readFile(chained).catch(() => null)) !== null) {
      throw new ForgeError('HOOK_CONFLICT', `both '${path}' (not forge's) and '${chained}' exist; forge will not guess which to keep`, {
        fix: `ls -l ${shellQuote(dir)}`,
      });
    }
    await rename(path, chained);
  }
  await writeFile(path, prePushScript({ forgeBin }));
  await chmod(path, 0o755);
  return { path, installed: true, chained };
}
