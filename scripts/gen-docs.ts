// Writes man/, completions/, package.json's bin map, the README's command index and docs/contract.md's code tables from the declarations, the state validators from their schemas, and the API's types (`make docs`).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, readdirSync, unlinkSync, mkdirSync } from 'node:fs';
import { entries } from '../commands/index';
import { binMap, generatedFiles, manList, withGeneratedSections } from '../lib/cli/docs';
import { API_TYPES_PATH, apiTypesSource } from './gen-api-types';
import { CONFIG_VALIDATOR_PATH, configValidatorSource, VALIDATORS_PATH, validatorsSource } from './gen-validators';

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
/**
 * Writes a file only when its content changes: a file rewritten as it was would still look new to
 * make, and package.json newer than node_modules/.deps-stamp makes the next `make build` run npm ci.
 */
function write(path: string, content: string): void {
  if (!existsSync(path) || readFileSync(path, 'utf8') !== content) writeFileSync(path, content);
}
const files = generatedFiles(entries, pkg.version, (path) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined));
// forge mcp's description lists the toolsets from lib/mcp/served.gen.ts as this process loaded it:
// when the table changes, it is written and the pages are made by a fresh process that reads it.
const SERVED_PATH = 'lib/mcp/served.gen.ts';
const served = files.get(SERVED_PATH)!;
if (readFileSync(SERVED_PATH, 'utf8') !== served && !process.env.FORGE_GEN_DOCS_AGAIN) {
  writeFileSync(SERVED_PATH, served);
  const again = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!], {
    stdio: 'inherit',
    env: { ...process.env, FORGE_GEN_DOCS_AGAIN: '1' },
  });
  process.exit(again.status ?? 1);
}
for (const dir of ['man', 'completions']) {
  mkdirSync(dir, { recursive: true });
  for (const name of readdirSync(dir)) if (!files.has(`${dir}/${name}`)) unlinkSync(`${dir}/${name}`);
}
for (const [path, content] of files) write(path, content);
pkg.bin = binMap(entries);
pkg.man = manList(entries);
write(
  'package.json',
  `${JSON.stringify(pkg, null, 2)}
`,
);
for (const [file, text] of withGeneratedSections(entries, (f) => readFileSync(f, 'utf8'))) write(file, text);
write(VALIDATORS_PATH, validatorsSource());
write(CONFIG_VALIDATOR_PATH, configValidatorSource());
write(API_TYPES_PATH, apiTypesSource());
console.log(
  `wrote ${files.size} files, the bin map, the man list (${Object.keys(pkg.bin).length} programs), the README's command index, the code tables of docs/contract.md, ${VALIDATORS_PATH}, ${CONFIG_VALIDATOR_PATH} and ${API_TYPES_PATH}`,
);
