// Writes man/, completions/, package.json's bin map and the README's command index from the declarations, and the state validators from their schemas (`make docs`).
import { readFileSync, writeFileSync, readdirSync, unlinkSync, mkdirSync } from 'node:fs';
import { entries } from '../commands/index';
import { binMap, generatedFiles, manList, withCommandIndex } from '../lib/cli/docs';
import { VALIDATORS_PATH, validatorsSource } from './gen-validators';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
const files = generatedFiles(entries, pkg.version);
for (const dir of ['man', 'completions']) {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (!files.has(`${dir}/${name}`)) unlinkSync(`${dir}/${name}`);
}
for (const [path, content] of files) writeFileSync(path, content);
pkg.bin = binMap(entries);
pkg.man = manList(entries);
writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
writeFileSync('README.md', withCommandIndex(readFileSync('README.md', 'utf8'), entries));
writeFileSync(VALIDATORS_PATH, validatorsSource());
console.log(
  `wrote ${files.size} files, the bin map, the man list (${Object.keys(pkg.bin).length} programs), the README's command index and ${VALIDATORS_PATH}`,
);
