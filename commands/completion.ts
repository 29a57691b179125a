// forge completion: the shell completion script for bash, zsh or fish, to source or to install.
import { defineCommand } from '../lib/cli/declare';
import { bashCompletion, fishCompletion, zshCompletion } from '../lib/cli/completions';

/** Where each shell looks for a completion file of the user's own, and the line that puts the script there. */
const INSTALL = {
  bash: 'forge completion bash > ~/.local/share/bash-completion/completions/forge',
  zsh: 'forge completion zsh > "${fpath[1]}/_forge"',
  fish: 'forge completion fish > ~/.config/fish/completions/forge.fish',
} as const;

export default defineCommand({
  name: 'completion',
  summary: 'Print the shell completion script for bash, zsh or fish',
  description: [
    "Prints the completion script of the shell named: commands and subcommands, every option (the common ones before a command too: forge -C ⇥), the choices an option or an argument declares (forge logs --severity ⇥, forge read --color=⇥, forge completion ⇥), and file names — directories with a trailing /, names with spaces quoted, relative to -C/--cwd when one was typed, never git's own files (.git), which every file tool refuses. The same scripts are in the package's completions/ directory, generated from the declarations like the man pages. The script's hint goes to stderr, so stdout is the script alone.",
    `To load it in the current shell: eval "$(forge completion bash)" (zsh: source <(forge completion zsh); fish: forge completion fish | source). To install it for every new shell: ${INSTALL.bash}; ${INSTALL.zsh} (a directory on $fpath, before compinit runs); ${INSTALL.fish}.`,
  ].join('\n\n'),
  args: {
    shell: {
      type: 'string',
      positional: true,
      required: true,
      choices: ['bash', 'zsh', 'fish'],
      placeholder: 'SHELL',
      description: 'The shell: bash, zsh or fish.',
    },
  },
  examples: [
    { command: 'eval "$(forge completion bash)"', description: 'Completion in this bash session.' },
    { command: 'forge completion zsh > _forge', description: 'The zsh script, for a directory on $fpath.' },
  ],
  errors: {},
  exits: { 0: 'printed', 2: 'invalid input (a shell other than bash, zsh or fish)' },
  mutates: false,
  mcp: false,
  dataOutput: true,
  async run(args, ctx) {
    // The registry holds this command: the caller hands it over (no import cycle).
    const entries = ctx.registry();
    const script = { bash: bashCompletion, zsh: zshCompletion, fish: fishCompletion }[args.shell](entries);
    return { data: { shell: args.shell, script }, text: script.trimEnd(), next: null };
  },
});
