// The XDG base directories as the spec reads them: a variable that holds a relative path is invalid and ignored, so the default applies.
import { isAbsolute } from 'node:path';

/** `value` when it is an absolute path; undefined when unset, empty or relative (the caller's default then applies). */
export function xdgBase(value: string | undefined): string | undefined {
  return value && isAbsolute(value) ? value : undefined;
}
