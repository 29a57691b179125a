// `make hints`: hint-marker coverage of every command's examples and error path, and every hint followed.
import { walk } from '../test/helpers/walker';

const checks = await walk();
const byCommand = new Map<string, typeof checks>();
for (const c of checks) byCommand.set(c.command, [...(byCommand.get(c.command) ?? []), c]);
const width = Math.max(...[...byCommand.keys()].map((k) => k.length));
for (const [command, list] of byCommand) {
  const passed = list.filter((c) => c.ok).length;
  const markers = [...new Set(list.map((c) => c.marker))].join(', ');
  console.log(`${command.padEnd(width)}  ${passed}/${list.length} responses carry a hint  (${markers})`);
  for (const c of list.filter((x) => !x.ok)) console.log(`  MISSING in ${c.case}\n${c.detail.replace(/^/gm, '    ')}`);
}
const total = checks.filter((c) => c.ok).length;
console.log(
  `\nhint coverage: ${total}/${checks.length} responses (${((100 * total) / checks.length).toFixed(0)}%) across ${byCommand.size} commands`,
);
process.exitCode = total === checks.length ? 0 : 1;
