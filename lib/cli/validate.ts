// Checks and coerces one request (from flags or an NDJSON line) against a command's argument schema.
import { InvalidInputError } from '../errors';
import { COMMON_ARGS, type ArgSpec, type ArgsSpec, type ArgType } from './declare';

/** Common fields a request may carry besides the command's own. */
export interface CommonFields {
  cwd?: string;
  'run-id'?: string;
  id?: unknown;
}

const COMMON_KEYS = new Set<string>(Object.keys(COMMON_ARGS));

/** `runId` → `run-id`, so NDJSON keys may be camelCase or the long flag names. */
export function kebab(key: string): string {
  return key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

export function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Text cut after 80 characters: a message quotes what was sent, not a megabyte of it. */
export function cut(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** A value as an error message shows it: JSON, but Infinity as itself (JSON would say null). */
export function shown(value: unknown): string {
  return cut(typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? String(value)));
}

/** How deep a request value may nest: a JSON object to store or echo, not a tower that overflows the stack. */
const MAX_DEPTH = 32;
/**
 * A UTF-16 half without its other half: JSON's `\ud800` escape makes one, and stdin's decoder
 * (decodeBytes) makes one of each byte that is not UTF-8. No file or path can hold it.
 */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses a value nested deeper than MAX_DEPTH or holding text that is not Unicode: written to a
 * file or used as a path, it would silently become U+FFFD — not what was asked.
 */
function checkValue(name: string, value: unknown, fix: string, depth = 0): void {
  if (typeof value === 'string') {
    const at = value.search(LONE_SURROGATE);
    if (at >= 0) {
      const line = value.slice(0, at).split('\n').length;
      throw new InvalidInputError(
        'INVALID_ARGUMENT',
        `'${name}' is not UTF-8 text: line ${line} holds a byte that is not UTF-8, or half of a surrogate pair (a lone \\ud800-\\udfff escape)`,
        { fix, data: { field: name } },
      );
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= MAX_DEPTH)
    throw new InvalidInputError('INVALID_ARGUMENT', `'${name}' is nested deeper than ${MAX_DEPTH} levels`, { fix, data: { field: name } });
  for (const [key, v] of Object.entries(value)) {
    checkValue(name, key, fix, depth + 1);
    checkValue(name, v, fix, depth + 1);
  }
}

/** A flag's JSON text parsed (NDJSON gives the value already parsed). */
function fromJson(value: unknown, bad: () => Error): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    throw bad();
  }
}

function coerce(name: string, spec: ArgSpec, value: unknown, fix: string): unknown {
  const bad = (expected: string) =>
    new InvalidInputError('INVALID_ARGUMENT', `'${name}' must be ${expected}, got ${typeName(value)} ${shown(value)}`, {
      fix,
      data: { field: name },
    });
  switch (spec.type) {
    case 'string': {
      if (typeof value === 'number') value = String(value);
      if (typeof value !== 'string') throw bad('a string');
      if (spec.choices && !spec.choices.includes(value)) {
        throw new InvalidInputError('INVALID_ARGUMENT', `'${name}' must be one of ${spec.choices.join(', ')}, got '${cut(value)}'`, {
          fix,
          data: { field: name },
        });
      }
      return value;
    }
    case 'number':
    case 'integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n !== 'number' || !Number.isFinite(n)) throw bad(spec.type === 'integer' ? 'an integer' : 'a number');
      if (spec.type === 'integer' && !Number.isInteger(n)) throw bad('an integer');
      if ((spec.min !== undefined && n < spec.min) || (spec.max !== undefined && n > spec.max)) {
        throw new InvalidInputError(
          'INVALID_ARGUMENT',
          `'${name}' must be between ${spec.min ?? '-inf'} and ${spec.max ?? 'inf'}, got ${n}`,
          { fix, data: { field: name } },
        );
      }
      return n;
    }
    case 'boolean':
      if (value === 'true') return true;
      if (value === 'false') return false;
      if (typeof value !== 'boolean') throw bad('true or false');
      return value;
    case 'array': {
      const list = Array.isArray(value) ? value : [value];
      return list.map((v) => {
        if (typeof v === 'number') return String(v);
        if (typeof v !== 'string') throw bad('a list of strings');
        return v;
      });
    }
    case 'objects': {
      const v = fromJson(value, () => bad('a JSON array of objects'));
      if (!Array.isArray(v) || v.some((o) => typeof o !== 'object' || o === null || Array.isArray(o))) throw bad('a JSON array of objects');
      checkValue(name, v, fix);
      if (spec.fields) v.forEach((item, i) => checkFields({ at: `${name}[${i}]`, item, fields: spec.fields!, fix }));
      return v;
    }
    case 'object': {
      const v = fromJson(value, () => bad('a JSON object'));
      if (typeof v !== 'object' || v === null || Array.isArray(v)) throw bad('a JSON object');
      checkValue(name, v, fix);
      return v;
    }
  }
}

/**
 * Validates a raw request and returns the command's typed arguments plus the common fields.
 * Unknown keys, wrong types, out-of-range numbers and missing required arguments are INVALID
 * input (exit 2) with the command's help as the fix.
 */
export function validateRequest({ spec, raw, fix }: { spec: ArgsSpec; raw: Record<string, unknown>; fix: string }): {
  args: Record<string, unknown>;
  common: CommonFields;
} {
  const args: Record<string, unknown> = {};
  const common: CommonFields = {};
  for (const [rawKey, value] of Object.entries(raw)) {
    if (rawKey === 'id') {
      common.id = value;
      continue;
    }
    const key = kebab(rawKey);
    if (COMMON_KEYS.has(key)) {
      if (key === 'cwd' || key === 'run-id') {
        if (typeof value !== 'string')
          throw new InvalidInputError('INVALID_ARGUMENT', `'${key}' must be a string`, { fix, data: { field: key } });
        checkValue(key, value, fix);
        common[key] = value;
      }
      continue;
    }
    // Own keys only: `constructor` or `__proto__` would otherwise find Object.prototype's members.
    const argSpec = Object.hasOwn(spec, key) ? spec[key] : undefined;
    if (!argSpec) {
      const known = Object.keys(spec).join(', ') || 'none';
      throw new InvalidInputError('UNKNOWN_FIELD', `unknown field '${cut(rawKey)}' (known: ${known})`, { fix, data: { field: rawKey } });
    }
    if (value === undefined || value === null) continue;
    if (!argSpec.anyText) checkValue(key, value, fix);
    args[key] = coerce(key, argSpec, value, fix);
  }
  for (const [key, argSpec] of Object.entries(spec)) {
    if (args[key] !== undefined) continue;
    if (argSpec.default !== undefined) args[key] = argSpec.default;
    else if (argSpec.type === 'boolean') args[key] = false;
    else if (argSpec.type === 'array') args[key] = [];
    else if (argSpec.required) {
      throw new InvalidInputError('MISSING_ARGUMENT', `missing required argument '${key}'`, { fix, data: { field: key } });
    }
  }
  return { args, common };
}

/** An item of an 'objects' argument holds only its declared keys, each of its declared JSON type. */
function checkFields({
  at,
  item,
  fields,
  fix,
}: {
  at: string;
  item: Record<string, unknown>;
  fields: Readonly<Record<string, 'string' | 'boolean' | 'integer'>>;
  fix: string;
}): void {
  for (const [key, value] of Object.entries(item)) {
    const type = Object.hasOwn(fields, key) ? fields[key] : undefined;
    if (!type)
      throw new InvalidInputError(
        'INVALID_ARGUMENT',
        `${at} has no field '${cut(key)}': its fields are ${Object.keys(fields).join(', ')}`,
        {
          fix,
          data: { field: at },
        },
      );
    const expected = wrongType(type, value);
    if (expected)
      throw new InvalidInputError('INVALID_ARGUMENT', `${at}.${key} must be ${expected}, got ${typeName(value)} ${shown(value)}`, {
        fix,
        data: { field: `${at}.${key}` },
      });
  }
}

/** The JSON type a declared argument's schema gives (schema.ts), as words for a message; null when the value has it (no coercion: typed JSON from a tool call or an item of an 'objects' argument). */
export function wrongType(type: ArgType, value: unknown): string | null {
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  switch (type) {
    case 'string':
      return typeof value === 'string' ? null : 'a string';
    case 'number':
      return typeof value === 'number' ? null : 'a number';
    case 'integer':
      return Number.isInteger(value) ? null : 'an integer';
    case 'boolean':
      return typeof value === 'boolean' ? null : 'true or false';
    case 'array':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? null : 'an array of strings';
    case 'object':
      // Its schema offers it as JSON text (strict tool modes have no free-form object); an object is taken too.
      return isObject(value) || typeof value === 'string' ? null : 'a JSON object, as text';
    case 'objects':
      return Array.isArray(value) && value.every(isObject) ? null : 'an array of objects';
  }
}
