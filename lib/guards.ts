// Type guards for untrusted JSON (hook payloads, settings files, tool arguments).

/** A JSON object: not null, not an array. */
export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string with something in it. */
export const isText = (v: unknown): v is string => typeof v === 'string' && v !== '';
