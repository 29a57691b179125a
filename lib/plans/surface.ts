// The surfaces a plan's work may reach, from least to most: its own file so the shell tables can name them without importing the plan reader.
export const SURFACES = ['artifacts_only', 'local_branch', 'remote_branch_pr'] as const;
export type Surface = (typeof SURFACES)[number];
