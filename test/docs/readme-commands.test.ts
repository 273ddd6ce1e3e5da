import { describe, expect, it } from 'vitest';
import { normalizeOutput, printedCommands, readmeCommands, readmeSamples, sampleMatches } from './readme-commands.js';

const README = [
  '# x',
  '',
  '```sh',
  'npm run desk                 # chat in the terminal',
  'npm run desk -- --shape swarm',
  '```',
  '',
  'Read it back with `npm run skein -- show sqlite:.desk/desk.db c-1`, or `npm',
  'run desk:web`; the option `--yes` is no command.',
  '',
  '```text',
  '$ npm run desk',
  'customer> hi',
  '  ...',
  'desk> hello (took 12 ms)',
  '```',
].join('\n');

describe('the commands and outputs of a README', () => {
  it('finds block lines (without their comments) and inline commands, in order and with their lines', () => {
    expect(readmeCommands('R', README)).toEqual([
      { command: 'npm run desk', where: 'R line 4', inline: false },
      { command: 'npm run desk -- --shape swarm', where: 'R line 5', inline: false },
      { command: 'npm run skein -- show sqlite:.desk/desk.db c-1', where: 'R line 8', inline: true },
      { command: 'npm run desk:web', where: 'R line 8', inline: true },
    ]);
  });

  it('matches an output against the sample shown for it, `...` standing for any lines, times aside', () => {
    const [sample] = readmeSamples('R', README);
    expect(sample?.command).toBe('npm run desk');
    const shown = normalizeOutput(sample?.lines.join('\n') ?? '').split('\n');
    const actual = (text: string) => normalizeOutput(text).split('\n');
    expect(
      sampleMatches(shown, actual('customer> hi\n  [triage] started\n  [triage] done\ndesk> hello (took 3 ms)')),
    ).toBe(true);
    expect(sampleMatches(shown, actual('customer> hi\ndesk> hello (took 3 ms)'))).toBe(true);
    expect(sampleMatches(shown, actual('customer> hi\ndesk> bye (took 3 ms)'))).toBe(false);
  });

  it('finds the commands a program prints as hints', () => {
    expect(
      printedCommands(
        '[eval] results: r.jsonl; pages: npm run skein -- eval export .desk/evals/desk -o eval.html\n  run: x (npx skein show s x)',
      ),
    ).toEqual(['npm run skein -- eval export .desk/evals/desk -o eval.html', 'npx skein show s x']);
  });
});
