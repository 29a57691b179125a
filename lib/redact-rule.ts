// The shape of a converted gitleaks rule: its own file so the generated rules (redact-rules.gen.ts) and the redactor that runs them both import it, neither the other.

/** A regex of the generated rules: JS source and flags, compiled when first used. */
export interface RuleRegex {
  source: string;
  flags: string;
}

/** A gitleaks allowlist: a finding is let go when its regexes match `target` or its secret holds a stopword (both, with `and`). */
export interface GitleaksAllowlist {
  target: 'secret' | 'match' | 'line';
  and: boolean;
  regexes: readonly RuleRegex[];
  stopwords: readonly string[];
}

/** A gitleaks rule as scripts/gen-secret-rules.ts converts it. */
export interface GitleaksRule<Id extends string = string> {
  id: Id;
  regex: RuleRegex;
  /** How many `[\w.-]` characters the match may start before what `regex` matches (a lazy prefix the generator took off). */
  prefix: number;
  /** The capture group that is the secret; 0: the first that matched something, or the whole match when there is none. */
  secretGroup: number;
  /** Lowercase words of which the text must hold one for the rule to run (none: it always runs). */
  keywords: readonly string[];
  /** A secret whose Shannon entropy is this or lower is not one (0: no check). */
  entropy: number;
  allowlists: readonly GitleaksAllowlist[];
}
