#!/usr/bin/env node
// The storecheck command: runs the TypeScript CLI through tsx's loader (no build step).
//
// A conformance run loads vitest's Node API, a large module graph. Loaded before tsx's loader is
// registered, it skips the loader's per-module hooks: that saves ~0.8 s of CPU at every start
// (measured: 1.6 s → 0.8 s from launch to the CLI's first line). Other commands do not need it.
import { setFlagsFromString } from 'node:v8';
import { register } from 'tsx/esm/api';

// V8 optimises a function once it has run a budget of bytecode (its interrupt budget, 132 KB by
// default). A run lasts seconds and its four isolates (this thread and three vitest workers) each
// optimise the same suite again: V8's helper threads spent ~3.4 CPU-s of a 12-second run compiling.
// With 1 MB, code that runs only briefly is never optimised: measured in alternated pairs, the
// embedded standard run took 7 % less CPU and 4 % less wall time; 4 MB was 12 % slower than 1 MB
// (docs/speed.md, "Waiting for a core"). Set before vitest loads and before any worker starts, so
// every isolate takes it; a budget given on node's command line is left alone.
if (!process.execArgv.some((a) => /^--interrupt[-_]budget\b/.test(a))) setFlagsFromString('--interrupt-budget=1000000');

const [first] = process.argv.slice(2);
const runs = first === undefined || first === 'run' || (first.startsWith('--') && first !== '--help' && first !== '-h' && first !== '--version' && first !== '-V');
if (runs) await import('vitest/node');
register();
const [{ main }, { exitAfter }] = await Promise.all([import('../src/cli.ts'), import('../src/cli/stdio.ts')]);
// exits once stdout and stderr have drained: a pipe's reader gets every byte (src/cli/stdio.ts)
await exitAfter(() => main(process.argv.slice(2)));
