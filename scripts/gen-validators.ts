// Compiles lib/state/schemas.ts into lib/state/validators.gen.ts: each zod schema as JSON Schema, then Ajv's standalone code (run by gen-docs.ts).
import { writeFileSync } from 'node:fs';
import Ajv from 'ajv';
import standaloneCode from 'ajv/dist/standalone';
import * as z from 'zod/mini';
import { CONFIG_SCHEMA } from '../lib/agent/config-schema';
import { STATE_SCHEMAS } from '../lib/state/schemas';

export const VALIDATORS_PATH = 'lib/state/validators.gen.ts';
export const CONFIG_VALIDATOR_PATH = 'lib/agent/config-validator.gen.ts';

/** The generated module's text: plain functions that check a value, fill in defaults and say what is wrong — no schema library loaded. */
export function validatorsSource(): string {
  const kinds = Object.keys(STATE_SCHEMAS) as Array<keyof typeof STATE_SCHEMAS>;
  const ajv = new Ajv({
    code: { source: true, esm: true, lines: true },
    useDefaults: true,
    allowUnionTypes: true,
    // One error is all a message shows, and stopping at it is cheaper.
    allErrors: false,
  });
  for (const kind of kinds)
    ajv.addSchema({ ...z.toJSONSchema(STATE_SCHEMAS[kind].schema, { io: 'input', target: 'draft-07' }), $id: kind });
  const code = standaloneCode(ajv, Object.fromEntries(kinds.map((k) => [`validate_${k}`, k])));
  // One export per kind, and every regular expression marked pure: a bundle keeps the validators it uses and no others.
  const files = kinds.map(
    (k) =>
      `export const ${k}: StateFile<'${k}'> = { kind: '${k}', what: ${JSON.stringify(STATE_SCHEMAS[k].what)}, validate: validate_${k} };`,
  );
  return [
    '// Generated from lib/state/schemas.ts by scripts/gen-validators.ts (make docs): do not edit. A test fails when it is stale.',
    '// @ts-nocheck',
    "import type { StateFile } from './read';",
    code.replace(/^"use strict";/, '').replaceAll('new RegExp(', '/* @__PURE__ */ new RegExp('),
    ...files,
    '',
  ].join('\n');
}

/** The config file's validator (lib/agent/config-schema.ts), one function: its first error is what config-messages.ts words for the user. */
export function configValidatorSource(): string {
  // Ajv's own messages are not shown (config-messages.ts words each key's), and lengths are counted as the rest of forge counts them.
  const ajv = new Ajv({
    code: { source: true, esm: true },
    allowUnionTypes: true,
    allErrors: false,
    strictTuples: false,
    unicode: false,
    messages: false,
  });
  ajv.addSchema({ ...z.toJSONSchema(CONFIG_SCHEMA, { io: 'input', target: 'draft-07' }), $id: 'config' });
  const code = standaloneCode(ajv, { validateConfig: 'config' });
  return [
    '// Generated from lib/agent/config-schema.ts by scripts/gen-validators.ts (make docs): do not edit. A test fails when it is stale.',
    '// @ts-nocheck',
    code.replace(/^"use strict";/, '').replaceAll('new RegExp(', '/* @__PURE__ */ new RegExp('),
    '',
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(VALIDATORS_PATH, validatorsSource());
  console.log(`wrote ${VALIDATORS_PATH}`);
}
