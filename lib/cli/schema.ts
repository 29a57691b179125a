// Lean JSON Schema tool definitions derived from command declarations (small models choke on big ones).
import type { ArgSpec, ArgsSpec, CommandSpec } from './declare';

export interface ToolSchema {
  name: string;
  description: string;
  parameters: {
    type: 'object';
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
    additionalProperties: false;
  };
}

/** `memory save` → `memory_save`: tool names allow no spaces. */
export function toolName(spec: CommandSpec<any>): string {
  return spec.name.replace(/[ -]/g, '_');
}

function property(spec: ArgSpec): Record<string, unknown> {
  const p: Record<string, unknown> = {};
  switch (spec.type) {
    case 'array':
      p.type = 'array';
      p.items = { type: 'string' };
      break;
    case 'object':
      // Free-form: as JSON text, since OpenAI's and Anthropic's strict tool modes allow no object
      // without its properties (a strict converter would make it {} and lose every field).
      p.type = 'string';
      break;
    case 'objects':
      p.type = 'array';
      p.items = spec.fields
        ? {
            type: 'object',
            properties: Object.fromEntries(Object.entries(spec.fields).map(([k, type]) => [k, { type }])),
            additionalProperties: false,
          }
        : { type: 'object' };
      break;
    default:
      p.type = spec.type;
  }
  const description = spec.tool ?? spec.description;
  if (description) p.description = description;
  if (spec.choices) p.enum = [...spec.choices];
  if (spec.min !== undefined) p.minimum = spec.min;
  if (spec.max !== undefined) p.maximum = spec.max;
  return p;
}

export function toolSchema(spec: CommandSpec<any>): ToolSchema {
  const properties: Record<string, Record<string, unknown>> = {};
  const required: string[] = [];
  for (const [name, arg] of Object.entries(spec.args as ArgsSpec)) {
    if (arg.personOnly) continue;
    properties[name] = property(arg);
    if (arg.required) required.push(name);
  }
  return {
    name: toolName(spec),
    description: spec.tool ?? spec.summary,
    // The properties are all a call may send: the NDJSON door's common keys (cwd, run-id) are not a tool's.
    parameters: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
  };
}
