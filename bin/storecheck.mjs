#!/usr/bin/env node
// The storecheck command: runs the TypeScript CLI through tsx's loader (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exit(await main(process.argv.slice(2)));
