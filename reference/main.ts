/**
 * npm run reference -- --port 8080 --api-key KEY [--cert FILE --key FILE]
 *   [--variant NAME] [--fault NAME]... [--seed N] [--latency-ms N]
 * Starts the embedded reference server and keeps it running until SIGINT/SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { FAULTS, getFault } from './faults.js';
import { startReferenceServer, type ReferenceOptions } from './server.js';
import { VARIANTS, getVariant } from './variants.js';

const USAGE = `Usage: npm run reference -- [options]

Starts the in-memory reference implementation of the Online Store Administration API.

Options:
  --port N          port to listen on (default 8080; 0 = a free port)
  --host HOST       address to bind (default 127.0.0.1)
  --api-key KEY     the API key clients must send (default: a random key, printed once)
  --cert FILE       TLS certificate (PEM); with --key, serve HTTPS
  --key FILE        TLS private key (PEM)
  --variant NAME    a benign variant (see --list)
  --fault NAME      switch on a fault; repeat or comma-separate for several (see --list)
  --seed N          data seed (default 1)
  --latency-ms N    delay every answer by N ms
  --list            list the variants and faults, then exit
  --help            this text
`;

class UsageError extends Error {}

interface Parsed { opts: ReferenceOptions; certFile?: string; keyFile?: string; list: boolean; help: boolean }

function int(flag: string, v: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${flag} needs an integer between ${min} and ${max}, got "${v}"`);
  return Number(v);
}

function parseArgs(argv: string[]): Parsed {
  const p: Parsed = { opts: { port: 8080, faults: [] }, list: false, help: false };
  for (let i = 0; i < argv.length; i++) {
    const raw = argv[i];
    const [flag, inline] = raw.startsWith('--') && raw.includes('=') ? [raw.slice(0, raw.indexOf('=')), raw.slice(raw.indexOf('=') + 1)] : [raw, undefined];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || (inline === undefined && v.startsWith('--'))) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--help': case '-h': p.help = true; break;
      case '--list': p.list = true; break;
      case '--port': p.opts.port = int(flag, value(), 0, 65535); break;
      case '--host': p.opts.host = value(); break;
      case '--api-key': {
        const k = value();
        if (!k.trim()) throw new UsageError('--api-key must not be empty');
        p.opts.apiKey = k;
        break;
      }
      case '--cert': p.certFile = value(); break;
      case '--key': p.keyFile = value(); break;
      case '--variant': p.opts.variant = getVariant(value()).name; break;
      case '--fault':
        for (const name of value().split(',').map((s) => s.trim()).filter(Boolean)) p.opts.faults!.push(getFault(name).name);
        break;
      case '--seed': p.opts.seed = int(flag, value(), 0, 2 ** 31 - 1); break;
      case '--latency-ms': p.opts.transport = { ...p.opts.transport, latencyMs: int(flag, value(), 0, 600_000) }; break;
      default:
        throw new UsageError(raw.startsWith('-') ? `unknown option ${raw} (see --help)` : `unexpected argument "${raw}" (see --help)`);
    }
  }
  if (!!p.certFile !== !!p.keyFile) throw new UsageError('--cert and --key go together');
  return p;
}

async function main(argv: string[]): Promise<number> {
  let parsed: Parsed;
  try {
    parsed = parseArgs(argv);
  } catch (e) {
    process.stderr.write(`reference: ${(e as Error).message}\n`);
    return 2;
  }
  if (parsed.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  if (parsed.list) {
    process.stdout.write('Variants:\n');
    for (const v of VARIANTS) process.stdout.write(`  ${v.name.padEnd(30)} ${v.description}\n`);
    process.stdout.write('Faults:\n');
    for (const f of FAULTS) process.stdout.write(`  ${f.name.padEnd(30)} breaks ${f.breaks} (${f.section}): ${f.description}\n`);
    return 0;
  }
  const { opts } = parsed;
  if (parsed.certFile && parsed.keyFile) {
    try {
      opts.tls = { cert: readFileSync(parsed.certFile), key: readFileSync(parsed.keyFile) };
    } catch (e) {
      process.stderr.write(`reference: cannot read TLS files: ${(e as Error).message}\n`);
      return 2;
    }
  }
  const generated = !opts.apiKey;
  if (generated) opts.apiKey = randomBytes(24).toString('base64url');
  let server;
  try {
    server = await startReferenceServer(opts);
  } catch (e) {
    process.stderr.write(`reference: cannot start: ${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(`reference server listening on ${server.url}\n`);
  if (opts.variant) process.stdout.write(`variant: ${opts.variant}\n`);
  if (opts.faults?.length) process.stdout.write(`faults: ${opts.faults.join(', ')}\n`);
  if (generated) {
    process.stdout.write(`generated API key: ${server.apiKey}\n(pass --api-key KEY to choose the key yourself)\n`);
  }
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await server.close();
  return 0;
}

main(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exitCode = code;
});
