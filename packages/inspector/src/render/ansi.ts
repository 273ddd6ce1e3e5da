/** Colours for a terminal, or none (piped output, NO_COLOR). */
export interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

const wrap =
  (open: number, close: number) =>
  (s: string): string =>
    `\u001b[${open}m${s}\u001b[${close}m`;

const COLOUR: Paint = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
  cyan: wrap(36, 39),
};
const PLAIN: Paint = {
  bold: (s) => s,
  dim: (s) => s,
  red: (s) => s,
  green: (s) => s,
  yellow: (s) => s,
  cyan: (s) => s,
};

/** Colour on a TTY unless NO_COLOR is set; plain otherwise. */
export function paintFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Paint {
  return stream.isTTY === true && env['NO_COLOR'] === undefined ? COLOUR : PLAIN;
}

/** Paint for a status word. */
export function statusColour(paint: Paint, status: string): (s: string) => string {
  if (status === 'completed') return paint.green;
  if (status === 'failed' || status === 'stopped') return paint.red;
  if (status === 'interrupted' || status === 'executing' || status === 'running') return paint.yellow;
  return paint.dim;
}
