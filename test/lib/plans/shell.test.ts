// A shell command line as the gate reads it: the surface, paths, plan lifecycle and unjudged parts of the ways agents write commands, and of the ways around a pattern.
import * as assert from 'uvu/assert';
import { readShell, type ShellEffects } from '../../../lib/plans/shell';
import { test } from '../../helpers/harness';

type Expect = Partial<ShellEffects>;

/**
 * Each case: a command line and what the gate must read in it. The first group are the commands
 * issue 36 saw get past the pattern the gate used (`git -C . push`, `git config …`, `echo x >
 * docs/y.md`); the rest are members of the same classes it did not name.
 */
const CASES: [string, Expect][] = [
  // Reaching a remote, however git or gh is reached.
  ['git push', { surface: 'remote_branch_pr' }],
  ['git -C . push', { surface: 'remote_branch_pr' }],
  ['git -c user.name=x push origin HEAD', { surface: 'remote_branch_pr' }],
  ['git --git-dir=.git --work-tree=. push', { surface: 'remote_branch_pr' }],
  ['git --no-pager push', { surface: 'remote_branch_pr' }],
  ['env -i PATH=/usr/bin git push', { surface: 'remote_branch_pr' }],
  ['command git push', { surface: 'remote_branch_pr' }],
  ['exec git push', { surface: 'remote_branch_pr' }],
  ['sudo -u me git push', { surface: 'remote_branch_pr' }],
  ['nohup git push &', { surface: 'remote_branch_pr' }],
  ['timeout 30 git push', { surface: 'remote_branch_pr' }],
  ['/usr/bin/git push', { surface: 'remote_branch_pr' }],
  ['"git" push', { surface: 'remote_branch_pr' }],
  ["g'i't push", { surface: 'remote_branch_pr' }],
  ['(cd src && git push)', { surface: 'remote_branch_pr' }],
  ['{ git push; }', { surface: 'remote_branch_pr' }],
  ['true && git push || echo failed', { surface: 'remote_branch_pr' }],
  ['for r in origin; do git push "$r"; done', { surface: 'remote_branch_pr' }],
  ['echo $(git push)', { surface: 'remote_branch_pr' }],
  ['echo `git push`', { surface: 'remote_branch_pr' }],
  ['x="$(git push 2>&1)"', { surface: 'remote_branch_pr' }],
  ['bash -c "git push"', { surface: 'remote_branch_pr' }],
  ["sh -c 'cd src; git push'", { surface: 'remote_branch_pr' }],
  ['eval "git push"', { surface: 'remote_branch_pr' }],
  ['watch -n 5 git push', { surface: 'remote_branch_pr' }],
  ['f() { git push; }; f', { surface: 'remote_branch_pr' }],
  // Code handed over as a string: to trap, to watch, to su -c and script -c, after a newline, ANSI-C quoted.
  ['trap "git push" EXIT', { surface: 'remote_branch_pr' }],
  ['watch "git push"', { surface: 'remote_branch_pr' }],
  ["script -qc 'rm -rf docs' /dev/null", { writes: ['docs'] }],
  ['cat src/a.ts\ngit push', { surface: 'remote_branch_pr', reads: ['src/a.ts'], readWords: null }],
  ["$'\\x67it' push", { surface: 'remote_branch_pr' }],
  ['exec 3>docs/x; echo hi >&3', { writes: ['docs/x'] }],
  ['[[ -n $(git push) ]]', { surface: 'remote_branch_pr' }],
  ['coproc git push', { surface: 'remote_branch_pr' }],
  ['npm run test -- --grep "some name"', { writes: [], surface: 'artifacts_only' }],
  ['gh pr create --fill', { surface: 'remote_branch_pr' }],
  ['gh pr merge 3 --squash', { surface: 'remote_branch_pr' }],
  ['gh api repos/o/r/pulls -f title=x', { surface: 'remote_branch_pr' }],
  ['gh issue comment 4 --body hi', { surface: 'remote_branch_pr' }],
  ['gh pr view 3', { surface: 'artifacts_only' }],
  ['git commit -am x', { surface: 'local_branch' }],
  ['git -C src reset --hard HEAD~1', { surface: 'local_branch' }],
  ['git log --oneline | head -5', { surface: 'artifacts_only', readWords: ['read'] }],
  // Writing files, by redirection and by the programs that write.
  ['echo x > docs/y.md', { writes: ['docs/y.md'] }],
  ['echo x >> docs/y.md', { writes: ['docs/y.md'] }],
  ['echo x >| docs/y.md', { writes: ['docs/y.md'] }],
  ['printf x &> docs/y.md', { writes: ['docs/y.md'] }],
  ['cat > docs/y.md <<EOF\nx\nEOF', { writes: ['docs/y.md'] }],
  ['echo x | tee docs/y.md', { writes: ['docs/y.md'] }],
  ['echo x | tee -a docs/a.md docs/b.md >/dev/null', { writes: ['docs/a.md', 'docs/b.md'] }],
  ["sed -i 's/a/b/' docs/y.md", { writes: ['docs/y.md'] }],
  ["sed -i.bak -e 's/a/b/' docs/y.md", { writes: ['docs/y.md'] }],
  ['cp src/a.ts docs/b.ts', { reads: ['src/a.ts'], writes: ['docs/b.ts'] }],
  ['cp -t docs src/a.ts', { reads: ['src/a.ts'], writes: ['docs'] }],
  ['mv src/a.ts docs/a.ts', { writes: ['src/a.ts', 'docs/a.ts'] }],
  ['rm -rf docs', { writes: ['docs'] }],
  ['touch docs/new.md', { writes: ['docs/new.md'] }],
  ['chmod 755 docs/run.sh', { writes: ['docs/run.sh'] }],
  ['ln -s ../.git/config src/cfg', { writes: ['src/cfg'] }],
  ['dd if=src/a of=docs/b', { reads: ['src/a'], writes: ['docs/b'] }],
  ['find docs -name "*.bak" -delete', { writes: ['docs/'] }],
  ['find . -name x -exec rm {} \\;', { writes: ['./'] }],
  ['git config core.hooksPath /tmp/h', { writes: ['.git/config'] }],
  ['git config --unset user.name', { writes: ['.git/config'] }],
  ['git -C sub config a.b c', { writes: ['sub/.git/config'] }],
  ['git config --global user.name me', { writes: ['~/.gitconfig'] }],
  ['git config --get user.name', { writes: [] }],
  ['echo hi 2>&1 >/dev/null', { writes: [] }],
  // Reading files: a read-only command line is a read (Codex reads through its shell).
  ['cat src/a.ts', { reads: ['src/a.ts'], readWords: ['read'] }],
  ['head -n 20 src/a.ts | grep -n foo', { reads: ['src/a.ts'], readWords: ['read', 'search'] }],
  ['grep -rn foo src', { reads: ['src/'], readWords: ['search'] }],
  ['rg foo', { reads: ['./'], readWords: ['search'] }],
  ['ls', { reads: ['./'], readWords: ['ls'] }],
  ['ls -la src/', { reads: ['src/'], readWords: ['ls'] }],
  ['cat src/*.ts', { reads: ['src/'], readWords: ['read'] }],
  ['wc -l < src/a.ts', { reads: ['src/a.ts'], readWords: ['read'] }],
  ['cd src && cat a.ts', { reads: ['src/a.ts'], readWords: ['read'] }],
  // A cd that may have failed (`;`, `||`) leaves both directories possible; a subshell's cd ends with it.
  ['cd src; cat a.ts', { reads: ['a.ts', 'src/a.ts'] }],
  ['cd src || true; cat a.ts', { reads: ['a.ts', 'src/a.ts'] }],
  ['(cd src && cat a.ts); cat b', { reads: ['src/a.ts', 'b'] }],
  ['echo "$(cd /etc && cat passwd)"; cat a', { reads: ['/etc/passwd', 'a'] }],
  ['cd src && cd lib && rm x', { writes: ['src/lib/x'] }],
  ['cd /tmp && rm -rf x', { writes: ['/tmp/x'] }],
  ['cat ~/.ssh/id_rsa', { reads: ['~/.ssh/id_rsa'] }],
  ['cat /etc/passwd', { reads: ['/etc/passwd'] }],
  ["awk '{print $1}' src/a.ts", { reads: ['src/a.ts'], readWords: ['read'] }],
  ['npm test', { readWords: null, reads: [], writes: [] }],
  ['cat src/a.ts > docs/out', { readWords: null, writes: ['docs/out'] }],
  // The plan's own lifecycle and forge's state ref: the operator's.
  ['forge plan end', { lifecycle: 'forge plan end' }],
  ["forge plan end --reason 'done'", { lifecycle: 'forge plan end' }],
  ['forge -C . plan pause --reason x', { lifecycle: 'forge plan pause' }],
  ['forge --json plan resume', { lifecycle: 'forge plan resume' }],
  ['forge plan activate --path docs/plans/p.md --replace', { lifecycle: 'forge plan activate' }],
  ['npx forge plan end', { lifecycle: 'forge plan end' }],
  ['npx -y forge plan end', { lifecycle: 'forge plan end' }],
  ['npm exec -- forge plan end', { lifecycle: 'forge plan end' }],
  ['node dist/forge.js plan end', { lifecycle: 'forge plan end' }],
  ['/usr/local/bin/forge plan end', { lifecycle: 'forge plan end' }],
  ['env FORGE_X=1 forge plan end', { lifecycle: 'forge plan end' }],
  ['echo ok && forge plan end', { lifecycle: 'forge plan end' }],
  ['sh -c "forge plan end"', { lifecycle: 'forge plan end' }],
  ['echo "$(forge plan end)"', { lifecycle: 'forge plan end' }],
  ['su -c "forge plan end" me', { lifecycle: 'forge plan end' }],
  ["trap 'forge plan pause --reason x' EXIT", { lifecycle: 'forge plan pause' }],
  ['git update-ref -d refs/forge/state', { lifecycle: "git update-ref on refs/forge/ (forge's state ref)" }],
  ['git push origin :refs/forge/state', { lifecycle: "git push on refs/forge/ (forge's state ref)" }],
  ['git fetch origin +refs/forge/state:refs/forge/state', { lifecycle: "git fetch on refs/forge/ (forge's state ref)" }],
  ['forge plan ack', { lifecycle: null }],
  ['forge plan status --json', { lifecycle: null }],
  // forge's own commands, read by their declarations: what each reads, changes, runs and reaches.
  ['forge read docs/notes.md', { reads: ['docs/notes.md'] }],
  ['forge read --start 5 --end 9 src/a.ts', { reads: ['src/a.ts'] }],
  ['forge read --path=docs/x.md', { reads: ['docs/x.md'] }],
  ['forge -C docs read notes.md', { reads: ['docs/notes.md'] }],
  ['forge read -C docs notes.md', { reads: ['docs/notes.md'] }],
  ['forge -Cdocs write y.md --content x', { writes: ['docs/y.md'] }],
  ['forge --cwd=docs write y.md --content x', { writes: ['docs/y.md'] }],
  ['forge write -Cdocs y.md --content x', { writes: ['docs/y.md'] }],
  ["forge write docs/y.md --content 'x'", { writes: ['docs/y.md'] }],
  ['forge edit --old a --new b docs/y.md', { writes: ['docs/y.md'] }],
  ['forge search TODO docs src', { reads: ['docs/', 'src/'] }],
  ['forge search TODO', { reads: ['./'] }],
  ["forge replace a b --glob 'docs/**/*.md'", { writes: ['docs/'] }],
  ["forge patch --diff $'--- a/docs/x.md\\n+++ b/docs/x.md\\n@@ -1 +1 @@\\n-a\\n+b\\n'", { writes: ['docs/x.md'] }],
  ['forge state export /tmp/out', { writes: ['/tmp/out/'] }],
  ['forge plan new login', { writes: ['docs/plans/'] }],
  ["forge validate m --cmd 'git push origin main'", { surface: 'remote_branch_pr' }],
  ["forge validate m --cmd='echo x > docs/y.md'", { writes: ['docs/y.md'] }],
  ["forge validate m --cmd 'make test' --cmd 'git commit -am x'", { surface: 'local_branch' }],
  ["forge validate m --cmd 'forge plan end'", { lifecycle: 'forge plan end' }],
  ["forge loop run --max-iterations 3 -- sh -c 'git push'", { surface: 'remote_branch_pr' }],
  ["forge loop start --prompt go --done-when 'git push'", { surface: 'remote_branch_pr' }],
  ['forge state sync', { surface: 'remote_branch_pr' }],
  ['forge state sync origin', { surface: 'remote_branch_pr' }],
  ['forge state sync --dry-run', { surface: 'artifacts_only' }],
  ['forge undo --list', { writes: [] }],
  ['forge memory save "use the helper" --category pattern', { reads: [], writes: [] }],
  ['forge --version', { reads: [], writes: [] }],
];

/** Parts that cannot be judged: each names what it is. */
const UNJUDGED: [string, RegExp][] = [
  ['$(echo forge) plan end', /the command name '\$\(echo forge\)'/],
  ['f=forge; $f plan end', /the command name '\$f'/],
  ['x=push; eval git $x', /eval of 'git \$x'/],
  ['echo "forge plan end" | sh', /the sh code read from its input/],
  ['bash <<EOF\ngit push\nEOF', /the bash code read from its input/],
  ['python3 -c "import os; os.system(\'git push\')"', /the python3 code given inline/],
  ["node -e \"require('child_process').execSync('git push')\"", /the node code given inline/],
  ['perl -e "system q(git push)"', /the perl code given inline/],
  ['git -c alias.p=push p', /an alias defined on the command line/],
  ['git p', /git p \(an alias or a program git-p/],
  ['for f in src/*.ts; do rm $f; done', /'\$f' \(a path made by an expansion\)/],
  ['echo x > "$OUT"', /'"\$OUT"' \(a path made by an expansion\)/],
  ['cat $HOME/.ssh/id_rsa', /a path made by an expansion/],
  ['ls | xargs rm', /xargs rm/],
  ['awk \'BEGIN{system("git push")}\'', /runs commands or writes files/],
  ['forge patch', /forge patch reading its diff from its input/],
  ['forge patch --file changes.diff', /forge patch reading its diff from a file/],
  ['forge mcp', /forge mcp/],
  ['forge agent "fix the tests"', /forge agent/],
  ['forge undo', /forge undo \(puts back/],
  ['forge init', /forge init/],
  ['forge hooks install pre-push', /forge hooks install/],
  ['forge plan install-hook claude --settings /tmp/s.json', /forge plan install-hook/],
  ['forge loop install codex', /forge loop install/],
  ['forge loop hook claude', /forge loop hook/],
  ['forge frobnicate', /forge 'frobnicate' \(not a command forge has\)/],
  ['forge read "$F"', /'"\$F"' given to forge read \(made by an expansion\)/],
  ['forge validate m --cmd "$CMD"', /given to forge validate \(made by an expansion\)/],
  ['forge plan "$X"', /forge '"\$X"'/],
  ['forge validate m --cmd \'python3 -c "import os"\'', /the python3 code given inline/],
  ['git status && (', /the command line:/],
];

for (const [command, expected] of CASES)
  test(`reads ${JSON.stringify(command)}`, () => {
    const got = readShell(command);
    for (const [key, value] of Object.entries(expected)) {
      const actual = got[key as keyof ShellEffects];
      if (Array.isArray(value) && Array.isArray(actual)) assert.equal([...actual].sort(), [...value].sort(), key);
      else assert.equal(actual, value, key);
    }
    if (!('lifecycle' in expected)) assert.is(got.lifecycle, null, 'no lifecycle');
    assert.is(got.unjudged, null, `judged: ${got.unjudged}`);
  });

for (const [command, why] of UNJUDGED)
  test(`cannot judge ${JSON.stringify(command)}`, () => {
    const got = readShell(command);
    assert.match(got.unjudged ?? '', why);
    assert.is(got.readWords, null, 'never a read');
  });

test.run();
