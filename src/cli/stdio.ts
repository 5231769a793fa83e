/**
 * How every command ends: what it wrote reaches the reader before the process exits.
 *
 * Writes to a pipe are asynchronous in Node: what the pipe cannot take at once is queued in the
 * process and handed over as the reader reads. `process.exit()` drops that queue — `storecheck
 * list | wc -l` counted 450 of 864 lines, and exited 0. So the entry points (bin/storecheck.mjs,
 * src/cli.ts run directly) end through `exitAfter`: the command's code once stdout and stderr
 * have drained. A reader that stops early (`| head`) is no error: the EPIPE ends the output
 * quietly and the command's exit code stands; any other failure to write stdout (a full disk) is
 * said on stderr and a successful command then exits 3 (its output is lost).
 */
import { EXIT } from '../exit.js';

type Stdio = NodeJS.WriteStream;

/** Errors the streams met, by stream (EPIPE included). */
const broken = new Map<Stdio, NodeJS.ErrnoException>();
let guarded = false;

/** Keep a write error on stdout or stderr from becoming an uncaught exception (once per process). */
export function guardStdio(): void {
  if (guarded) return;
  guarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (e: NodeJS.ErrnoException) => {
      if (!broken.has(stream)) broken.set(stream, e);
    });
  }
}

/** Resolves once everything written to `stream` so far was taken by the reader (or cannot be: the stream failed). */
export function drained(stream: Stdio): Promise<void> {
  if (stream.destroyed || stream.writableEnded || broken.has(stream) || stream.writableLength === 0) return Promise.resolve();
  // a write's callback runs after every earlier write was handed over (or with the error that stopped them)
  return new Promise((resolve) => {
    try {
      stream.write('', () => resolve());
    } catch {
      resolve();
    }
  });
}

/** The exit code once stdout and stderr have drained: `code`, unless stdout failed for another reason than a reader gone. */
export async function settle(code: number): Promise<number> {
  await Promise.all([drained(process.stdout), drained(process.stderr)]);
  const out = broken.get(process.stdout);
  if (out && out.code !== 'EPIPE') {
    if (!broken.has(process.stderr)) {
      process.stderr.write(`storecheck: error: could not write the output to stdout (${out.code ?? out.message})\n`);
      await drained(process.stderr);
    }
    if (code === EXIT.conformant) return EXIT.noVerdict;
  }
  return code;
}

/**
 * Run a command to its end: guard the streams, wait for the exit code, let stdout and stderr
 * drain, exit. The one way every command ends.
 */
export async function exitAfter(run: () => Promise<number>): Promise<never> {
  guardStdio();
  const code = await run().catch((e: Error) => {
    process.stderr.write(`storecheck: error: ${e?.message ?? String(e)}\n`);
    return EXIT.noVerdict;
  });
  process.exit(await settle(code));
}
