/**
 * A model-based failure replays (issue 16): the failing item of a sequence
 * prints its commands and requests, and its reproducer command — the run's
 * seed and depth, the embedded server's fault, `--only` the item and
 * `--replay SEED:PATH` (with, for a generated sequence, the commands' replay
 * path after '@') — run as written, fails the same item with the same
 * commands. A generated sequence is shrunk: the pages of a blog post walk
 * repeated after a delete need only a create and a walk to show.
 */
import { describe, expect, it } from 'vitest';
import { runStorecheck } from '../../reference/cli-process.js';

const commandsOf = (message: string | undefined) => /\ncommands: (.*)\n/.exec(message ?? '')?.[1];

describe('a failing model-based sequence', () => {
  it('prints its commands one request per line, and its reproducer command fails the same item with the same commands', async () => {
    // it reaches its shortest failing sequence within 2 s here, then tries candidates that pass until the budget ends
    const first = await runStorecheck(['--only', 'blog-post.model.sequence', '--reference-faults', 'walk-repeats-after-delete', '--seed', '2', '--depth', 'deep', '--shrink-s', '15', '--quiet']);
    const why = `exit ${first.code}\n${first.stderr.slice(-2000)}`;
    expect(first.code, why).toBe(1);
    const failed = first.report!.items!.find((i) => i.status === 'failed');
    expect(failed, why).toBeDefined();
    const commands = commandsOf(failed!.message);
    expect(commands, failed!.message).toBeDefined();
    expect(failed!.message).toMatch(/\nrequests \(one per line\):\n1\. POST \/api\/v1\/blog\/posts\//);
    const command = failed!.reproducer!.command!;
    // a generated sequence: its path carries the commands' replay path after '@'; it is shrunk to a few commands
    expect(command).toMatch(/--replay -?[0-9]+:[0-9:]+@[A-Za-z0-9+/]*:[A-Za-z0-9+/]*(\s|$)/);
    expect(commands!.split(" → ").length, commands).toBeLessThanOrEqual(6);

    const args = command.replace(/^npm run conformance -- /, '').match(/'[^']*'|\S+/g)!.map((a) => a.replace(/^'|'$/g, ''));
    const again = await runStorecheck([...args, '--quiet']);
    const whyAgain = `${command}\nexit ${again.code}\n${again.stderr.slice(-2000)}`;
    expect(again.code, whyAgain).toBe(1);
    const same = again.report!.items!.find((i) => i.id === failed!.id);
    expect(same?.status, whyAgain).toBe('failed');
    expect(commandsOf(same!.message), whyAgain).toBe(commands);
  }, 180_000);
});
