/**
 * The terminal desk's input: lines from stdin, whether a person types them (a prompt, line editing,
 * Ctrl-C and Ctrl-D) or they come from a pipe or a file (`echo ... | npm run desk`, `< /dev/null`:
 * each line is echoed after its prompt, so the transcript reads as a chat). The end of the input
 * (Ctrl-D, the end of the pipe) is `undefined`, never an error; Ctrl-C calls `onInterrupt`.
 */
import { createInterface, type Interface } from 'node:readline';

export class TerminalInput {
  readonly #rl: Interface;
  readonly #output: NodeJS.WritableStream;
  readonly #tty: boolean;
  readonly #lines: string[] = [];
  #ended = false;
  #waiting: ((line: string | undefined) => void) | undefined;

  constructor(
    input: NodeJS.ReadableStream & { isTTY?: boolean },
    output: NodeJS.WritableStream,
    onInterrupt: () => void,
  ) {
    this.#output = output;
    this.#tty = input.isTTY === true;
    this.#rl = createInterface({ input, output, terminal: this.#tty });
    this.#rl.on('line', (line) => this.#deliver(line));
    this.#rl.on('close', () => {
      // The input ended at the prompt (Ctrl-D, the end of a pipe): what follows starts on a line of its own.
      if (this.#waiting) output.write('\n');
      this.#ended = true;
      this.#deliver(undefined);
    });
    // On a terminal readline turns Ctrl-C into this event; a pipe gets the signal itself.
    this.#rl.on('SIGINT', onInterrupt);
    process.on('SIGINT', onInterrupt);
  }

  #deliver(line: string | undefined): void {
    const waiting = this.#waiting;
    if (waiting) {
      this.#waiting = undefined;
      waiting(line);
    } else if (line !== undefined) this.#lines.push(line);
  }

  /** Shows `prompt` and resolves with the next line (trimmed), or `undefined` when the input ended. */
  async ask(prompt: string): Promise<string | undefined> {
    const queued = this.#lines.shift();
    // Piped lines are not echoed by a terminal: the desk writes each after its prompt.
    if (queued !== undefined) {
      if (!this.#tty) this.#output.write(`${prompt}${queued}\n`);
      return queued.trim();
    }
    if (this.#ended) return undefined;
    const line = await new Promise<string | undefined>((resolve) => {
      this.#waiting = resolve;
      if (this.#tty) {
        this.#rl.setPrompt(prompt);
        this.#rl.prompt();
      } else this.#output.write(prompt);
    });
    if (!this.#tty && line !== undefined) this.#output.write(`${line}\n`);
    return line?.trim();
  }

  close(): void {
    this.#rl.close();
  }
}
