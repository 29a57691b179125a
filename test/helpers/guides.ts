// The examples of README.md and docs/*.md as steps a test runs: each ```sh block's `$ command   # comment` lines and the output under them.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

export interface Step {
  /** The command line after `$ ` (a line ending in `\` goes on with the next, a here-document to its delimiter, as in a shell), its comment cut off. */
  command: string;
  /** From `# exit N…` in its comment; 0 when the comment names none. */
  exit: number;
  /** The lines printed under it in the guide: each must be a line of its output, in this order. */
  shown: string[];
  /** The guide's line the command is on, for the failure message. */
  line: number;
}

export interface Block {
  /** `sh` blocks run; `sh no-run` blocks need what a test has not (a real Claude Code, a GPU) and are only shown. */
  run: boolean;
  steps: Step[];
  line: number;
}

/** The documents a user reads: the README, CONTRIBUTING and every guide under docs/. */
export function guideFiles(root = '.'): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', ...docs].filter((f) => existsSync(join(root, f)));
}

/** Every ```sh block of a Markdown text, in order, as steps; a block with no `$ ` line is a script shown whole and has none. */
export function shellBlocks(markdown: string): Block[] {
  const blocks: Block[] = [];
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^```sh(?:\s+(no-run))?\s*$/.exec(lines[i]!);
    if (!open) continue;
    const block: Block = { run: !open[1], steps: [], line: i + 1 };
    for (i++; i < lines.length && lines[i] !== '```'; i++) {
      const line = lines[i]!;
      if (line.startsWith('$ ')) {
        const at = i + 1;
        // A comment starts at a `#` after two spaces on the `$` line; examples quote no `  #`.
        const [first, comment = ''] = line.slice(2).split(/\s{2,}# /);
        let command = first!.trimEnd();
        while (command.endsWith('\\') && i + 1 < lines.length) command = `${command}\n${lines[++i]}`;
        // A here-document's lines are the command's, up to its delimiter.
        const here = /(?<!<)<<(?!<)-?\s*['"]?([A-Za-z_]+)['"]?/.exec(command);
        if (here) while (i + 1 < lines.length && lines[i] !== here[1]) command = `${command}\n${lines[++i]}`;
        block.steps.push({ command: command.trim(), exit: Number(/^exit (\d+)/.exec(comment)?.[1] ?? 0), shown: [], line: at });
      } else if (line.trim() && block.steps.length) block.steps.at(-1)!.shown.push(line);
    }
    blocks.push(block);
  }
  return blocks;
}

/** Whether `shown` is a subsequence of the output's lines; a `…` in a shown line stands for any text the guide left out. */
export function inOrder(output: string, shown: string[]): boolean {
  const lines = output.split('\n');
  let at = 0;
  for (const want of shown) {
    const pattern = new RegExp(
      `^${want
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    while (at < lines.length && !pattern.test(lines[at]!)) at++;
    if (at === lines.length) return false;
    at++;
  }
  return true;
}

/** Links of a Markdown text that leave the repository or lead to no file in it: [text](target) with a relative target. */
export function brokenLinks(file: string, root = '.'): string[] {
  const text = readFileSync(join(root, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  const broken: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!) || target!.startsWith('#')) continue;
    const path = normalize(join(dirname(file), target!.split('#')[0]!));
    if (path.startsWith('..') || !existsSync(join(root, path))) broken.push(target!);
  }
  return broken;
}
