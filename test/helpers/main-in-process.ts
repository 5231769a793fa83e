/**
 * The CLI's `main` run in the test's own process, stdout and stderr captured
 * together (and the environment given for the call only): for commands that
 * end before any check runs — usage errors, compare, a refused --base-url.
 * A whole run goes through reference/cli-process.ts instead (its own process).
 */
import { main } from '../../src/cli.js';

export async function runMain(argv: string[], env: Record<string, string> = {}): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const saved = { ...process.env };
  Object.assign(process.env, env);
  const writes = [process.stdout, process.stderr].map((s) => s.write.bind(s));
  for (const s of [process.stdout, process.stderr]) (s as { write: unknown }).write = (x: string) => (out.push(String(x)), true);
  try {
    return { code: await main(argv), out: out.join('') };
  } finally {
    (process.stdout as { write: unknown }).write = writes[0];
    (process.stderr as { write: unknown }).write = writes[1];
    process.env = saved;
  }
}
