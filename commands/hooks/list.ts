// forge hooks list: the agent's hooks of a config profile, event by event, and whether they are still to be detected.
import { defineCommand } from '../../lib/cli/declare';
import { workTreeRoot } from '../../lib/git/repo';

export default defineCommand({
  name: 'hooks list',
  summary: "List the agent's hooks of a config profile: the commands forge agent runs after edits and at each step, task and session",
  tool: "List forge agent's hooks of a config profile",
  description:
    'Prints the five events of the profile in use (--profile, else FORGE_PROFILE, else the "default" or only profile of $XDG_CONFIG_HOME/forge/config.json) with their shell commands: on_edit runs after each tool call of forge agent that changes files, and the output of a failing command (capped to 50 lines, the first ones and the last 5; 30 s at most, its process group killed after that) is added to that tool result so the model corrects itself in the same loop; on_step_done, on_task_done, on_session_start and on_session_end run at those moments. ' +
    'A profile without a "hooks" key gets them detected once, on the next forge agent run, and written into the profile with every event present: Cargo.toml gives cargo check -q after edits and cargo test -q when a task is done; tsconfig.json gives npx --no-install tsc --noEmit -p . (the project\'s own typescript, never a download); go.mod gives go build ./...; pyproject.toml or setup.py give ruff check . when ruff is on PATH. With no config file, forge agent creates one with a profile named "default" holding only the hooks. This command shows what detection would pick in this repository, without writing anything. "hooks_disabled": true in the profile runs and detects nothing. Edit the file to change the commands; the same profile holds "mcp_servers" (MCP servers whose tools forge agent offers to the model) and "auto_commit".',
  args: {
    profile: {
      type: 'string',
      tool: 'Config profile',
      placeholder: 'NAME',
      description: 'The config profile (default: FORGE_PROFILE, else the default or only profile).',
    },
  },
  examples: [
    { command: 'forge hooks list', description: 'The hooks of the profile forge agent would use, and the file to edit.' },
    { command: 'forge hooks list --json', description: 'One record per event, then a summary.' },
  ],
  errors: {
    CONFIG_INVALID: 'the config file is not valid JSON or a key has the wrong shape',
    CONFIG_UNREADABLE: 'the config file cannot be read',
    PROFILE_NOT_FOUND: 'no profile of that name',
    PROFILE_NOT_CHOSEN: 'several profiles, no "default", and no --profile',
  },
  exits: { 0: 'listed', 2: 'an invalid config file, or no such profile' },
  env: { FORGE_PROFILE: 'The profile when --profile is not given.', XDG_CONFIG_HOME: 'Where forge/config.json is (default ~/.config).' },
  mutates: false,
  mcp: { title: 'List installed hooks', toolset: 'install', effect: 'read' },
  async run(args, ctx) {
    const [{ editFix, readConfigText }, { HOOK_EVENTS }, { resolveAgentSettings }, { detectHooks, emptyHooks, NEW_PROFILE, sameMarkers }] =
      await Promise.all([
        import('../../lib/agent/config-file'),
        import('../../lib/agent/config-types'),
        import('../../lib/agent/config-settings'),
        import('../../lib/agent/hooks'),
      ]);
    const settings = await resolveAgentSettings({ flags: { profile: args.profile }, env: ctx.env, command: ctx.cmd('hooks', 'list') });
    const path = settings.configPath;
    const disabled = settings.hooksDisabled.value;
    const root = (await workTreeRoot({ cwd: ctx.cwd }))?.root ?? ctx.cwd;
    // Detected hooks serve the kind of project they came from; elsewhere forge agent detects anew.
    const here = settings.hooks.value && settings.hooksDetectedFrom && !disabled ? await detectHooks({ root, env: ctx.env }) : null;
    const foreign = here !== null && !sameMarkers(here.markers, settings.hooksDetectedFrom!);
    const configured = foreign ? null : settings.hooks.value;
    // hooks_disabled stops detection too: what would run is what the file says (nothing).
    const detection = foreign ? here : configured || disabled ? null : await detectHooks({ root, env: ctx.env });
    const hooks = configured ?? detection?.hooks ?? emptyHooks();
    const width = Math.max(...HOOK_EVENTS.map((e) => e.length)) + 2;
    for (const event of HOOK_EVENTS) {
      const commands = hooks[event];
      const text = commands.length ? commands.map((c, i) => `${(i ? '' : event).padEnd(width)}${c}`).join('\n') : `${event.padEnd(width)}-`;
      await ctx.emit(
        { type: 'hook', event, commands, source: configured ? 'config' : 'detection', runs: !disabled && commands.length > 0 },
        text,
      );
    }
    const name = settings.profile?.value ?? NEW_PROFILE;
    const key = `profiles.${name}.hooks`;
    const fileExists = (await readConfigText(path)) !== null;
    const from = detection?.markers.length
      ? `detected from ${detection.markers.join(', ')}`
      : 'none detected: no Cargo.toml, tsconfig.json, go.mod, or pyproject.toml/setup.py with ruff on PATH';
    let text: string;
    if (disabled) text = `hooks_disabled is true in profiles.${name} of ${path}: none of these runs and nothing is detected`;
    else if (configured) text = `hooks of profile '${name}', from ${key} in ${path}`;
    else if (foreign)
      text = `${key} in ${path} were detected from ${settings.hooksDetectedFrom!.join(', ') || 'no build file'}; this repository differs, so forge agent runs these (${from}) and leaves the profile as it is`;
    else if (!fileExists)
      text = `no ${path} yet: forge agent runs these hooks (${from}); forge agent --save-hooks creates it with a profile '${name}' holding them`;
    else
      text = `profile '${name}' has no hooks yet: forge agent runs these (${from}); forge agent --save-hooks writes them into ${key} of ${path}, every event present`;
    return {
      data: {
        profile: settings.profile?.value ?? null,
        configPath: path,
        disabled,
        toBeDetected: configured === null && !disabled && !foreign,
        markers: detection?.markers ?? [],
        commands: HOOK_EVENTS.reduce((n, e) => n + hooks[e].length, 0),
      },
      text,
      next: editFix(path),
    };
  },
});
