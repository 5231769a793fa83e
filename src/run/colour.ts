/**
 * Colour on the terminal, by the usual conventions (no dependency: plain ANSI):
 * - FORCE_COLOR=0 (or false) turns it off; any other FORCE_COLOR (even empty)
 *   turns it on, on a terminal or not (a CI log that renders ANSI) — and wins
 *   over NO_COLOR, as in Node itself;
 * - NO_COLOR with any non-empty value turns it off (https://no-color.org);
 * - otherwise: on when the stream is a terminal and TERM is not "dumb".
 */

export interface Paint {
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

export function colourEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return !/^(0|false)$/i.test(force.trim());
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return stream.isTTY === true && env.TERM !== 'dumb';
}

const sgr = (open: number, close: number) => (s: string) => (s ? `\x1b[${open}m${s}\x1b[${close}m` : s);
const plain = (s: string) => s;

export function paint(on: boolean): Paint {
  return on
    ? { red: sgr(31, 39), green: sgr(32, 39), yellow: sgr(33, 39), dim: sgr(2, 22), bold: sgr(1, 22) }
    : { red: plain, green: plain, yellow: plain, dim: plain, bold: plain };
}
