// What every request to a model endpoint shares: the URL with its path before a query, the bearer header, a header's value, and what a server's error body says.

/** Response headers as undici gives them: lower-case names, repeated ones as arrays. */
export type IncomingHttpHeaders = Record<string, string | string[] | undefined>;

/** The API base joined with a path, before a query string the endpoint carries (Azure's ?api-version=…, a proxy's ?api-key=…). */
export function apiUrl(base: string, path: string): string {
  const query = base.search(/[?#]/);
  return query < 0 ? `${base}${path}` : `${base.slice(0, query).replace(/\/+$/, '')}${path}${base.slice(query)}`;
}

export function authHeaders(apiKey: string | undefined): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The human part of an error body: OpenAI's `{error: {message}}`, a bare `{error: "…"}`, or the text. */
export function serverMessage(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (isRecord(parsed)) {
      if (parsed.error !== undefined) return errorText(parsed.error);
      if (typeof parsed.message === 'string') return parsed.message;
      if (typeof parsed.detail === 'string') return parsed.detail;
    }
  } catch {
    // Not JSON: a proxy's HTML page or a plain-text body.
  }
  return excerpt(text) || 'no details';
}

export function errorText(error: unknown): string {
  if (typeof error === 'string') return error;
  if (isRecord(error) && typeof error.message === 'string') return error.message;
  return excerpt(JSON.stringify(error));
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 300 ? `${flat.slice(0, 300)}…` : flat;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
