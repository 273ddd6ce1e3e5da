/**
 * The shell commands a README tells a reader to run, and the outputs it shows for them: every line of
 * its ```sh blocks (a trailing `# comment` is not part of it), every inline code span that is a
 * command (`npm ...`, `npx ...`, `VAR=value npm ...`), and each ```text block that starts with
 * `$ <command>` (what that command prints). Pure.
 */

/** A command as the README writes it, and where. */
export interface ReadmeCommand {
  command: string;
  /** `README.md line 8`. */
  where: string;
  /** Written inside a sentence (an inline code span), not in a ```sh block. */
  inline: boolean;
}

/** An output the README shows for a command. */
export interface ReadmeSample {
  command: string;
  lines: string[];
  where: string;
}

const COMMAND = /^(?:[A-Z_]+=\S+ )*(?:npm|npx) \S/;

const lineOf = (text: string, index: number): number => text.slice(0, index).split('\n').length;

/** The commands of one README, in the order they appear (blocks and inline spans alike). */
export function readmeCommands(name: string, text: string): ReadmeCommand[] {
  const found: { at: number; command: string; inline: boolean }[] = [];
  const blocks = /^```(\w*)\n([^]*?)^```$/gm;
  for (const block of text.matchAll(blocks)) {
    if (block[1] !== 'sh') continue;
    let offset = (block.index ?? 0) + block[0].indexOf('\n') + 1;
    for (const raw of (block[2] ?? '').split('\n')) {
      const command = raw.replace(/\s+#\s.*$/, '').trim();
      if (command) found.push({ at: offset, command, inline: false });
      offset += raw.length + 1;
    }
  }
  // Inline spans outside the blocks (blanked out, keeping offsets).
  const prose = text.replace(blocks, (block) => block.replace(/[^\n]/g, ' '));
  for (const span of prose.matchAll(/`([^`]+)`/g)) {
    const command = (span[1] ?? '').replace(/\s+/g, ' ').trim();
    if (COMMAND.test(command)) found.push({ at: span.index ?? 0, command, inline: true });
  }
  return found
    .sort((a, b) => a.at - b.at)
    .map((f) => ({ command: f.command, where: `${name} line ${lineOf(text, f.at)}`, inline: f.inline }));
}

/** The outputs of one README: ```text blocks whose first line is `$ <command>`. */
export function readmeSamples(name: string, text: string): ReadmeSample[] {
  const samples: ReadmeSample[] = [];
  for (const block of text.matchAll(/^```text\n([^]*?)^```$/gm)) {
    const [first, ...lines] = (block[1] ?? '').replace(/\n$/, '').split('\n');
    if (!first?.startsWith('$ ')) continue;
    samples.push({ command: first.slice(2), lines, where: `${name} line ${lineOf(text, block.index ?? 0)}` });
  }
  return samples;
}

/** Commands a program printed as hints (`pages: npm run skein -- eval export ... -o eval.html`). */
export function printedCommands(output: string): string[] {
  const found: string[] = [];
  for (const match of output.matchAll(/(?:^|[\s:;(])((?:npm run|npx) [^;)\n]*[^;)\s.])/gm)) found.push(match[1] ?? '');
  return found.filter((c) => !/[<>]/.test(c));
}

/** Output made comparable: times, durations, ports and keys (which differ on every run) as placeholders. */
export function normalizeOutput(text: string): string {
  return text
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z/g, '<time>')
    .replace(/\b\d+(?:\.\d+)? (?:ms|s)\b/g, '<duration>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .replace(/key=[\w-]+/g, 'key=<key>');
}

/**
 * True when `actual` (lines, normalized) is what `sample` shows: line by line, where a sample line
 * `  ...` stands for any number of lines.
 */
export function sampleMatches(sample: readonly string[], actual: readonly string[]): boolean {
  const [head, ...rest] = sample;
  if (head === undefined) return actual.length === 0;
  if (head.trim() === '...') {
    for (let skip = 0; skip <= actual.length; skip++) if (sampleMatches(rest, actual.slice(skip))) return true;
    return false;
  }
  return actual[0] === head && sampleMatches(rest, actual.slice(1));
}
