// What `forge version` and `forge --version` print: `forge <version>`, or with --json one record of the version and the Node it runs on.

/** The --json record: forge's version and the runtime's, which a bug report needs beside it. */
export function versionRecord(version: string): Record<string, unknown> {
  return { ok: true, version, node: process.versions.node, platform: process.platform, arch: process.arch, _next_action: null };
}

/** The output of a version request: the line git and gh users expect, or one NDJSON record. */
export function versionOutput({ version, json }: { version: string; json: boolean }): string {
  return json ? `${JSON.stringify(versionRecord(version))}\n` : `forge ${version}\n`;
}
