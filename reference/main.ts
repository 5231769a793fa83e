/**
 * npm run reference -- --port 8080 --api-key KEY [--cert FILE --key FILE]
 *   [--variant NAME] [--fault NAME]... [--seed N] [--latency-ms N] [--slow-writes MIN-MAX]
 *   [--transport NAME=VALUE,...] [--stats-file FILE]
 * Starts the embedded reference server and keeps it running until SIGINT/SIGTERM.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { storecheckCacheDir } from '../src/files.js';
import { usePrecompiledValidators } from '../src/schema/precompiled.js';
import { DEFAULT_TRANSPORT, type TransportFaults } from './behaviour.js';
import { FAULTS, getFault } from './faults.js';
import { startReferenceServer, type ReferenceOptions, type RequestStats } from './server.js';
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
  --latency-ms N    delay every answer by N ms (errors included)
  --slow-writes MIN-MAX
                    every create, update and delete takes MIN to MAX ms (seeded,
                    uniformly spread), e.g. 400-900; one number: always that long
  --transport NAME=VALUE[,NAME=VALUE]
                    any transport switch of reference/README.md, e.g.
                    rate503=0.03,allOperations=true or limitRps=60 (repeatable)
  --stats-file FILE on exit, write the requests served (by operation and status,
                    peak in flight, slow writes) and the CPU time used, as JSON
  --list            list the variants and faults, then exit
  --help            this text
`;

class UsageError extends Error {}

interface Parsed { opts: ReferenceOptions; certFile?: string; keyFile?: string; statsFile?: string; list: boolean; help: boolean }

function int(flag: string, v: string, min: number, max: number): number {
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${flag} needs an integer between ${min} and ${max}, got "${v}"`);
  return Number(v);
}

/** --slow-writes 400-900 (or one number). */
function slowWrites(flag: string, v: string): Partial<TransportFaults> {
  const m = /^([0-9]+)(?:-([0-9]+))?$/.exec(v);
  const [min, max] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [NaN, NaN];
  if (!m || min > max || max > 600_000) throw new UsageError(`${flag} needs MIN-MAX in ms (MIN ≤ MAX ≤ 600000), e.g. 400-900, got "${v}"`);
  return { slowWriteMinMs: min, slowWriteMaxMs: max };
}

/** --transport NAME=VALUE,...: each name a TransportFaults switch, each value of its default's type. */
function transportSwitches(flag: string, v: string): Partial<TransportFaults> {
  const out: Record<string, unknown> = {};
  const names = Object.keys(DEFAULT_TRANSPORT).concat('hugeGetResource', 'deepNestingResource');
  for (const pair of v.split(',').map((x) => x.trim()).filter(Boolean)) {
    const [name, value] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
    if (!pair.includes('=') || !names.includes(name)) throw new UsageError(`${flag}: "${pair}" is not NAME=VALUE with NAME one of ${names.join(', ')}`);
    const kind = typeof (DEFAULT_TRANSPORT as Record<string, unknown>)[name];
    if (kind === 'boolean') {
      if (value !== 'true' && value !== 'false') throw new UsageError(`${flag}: ${name} is true or false, got "${value}"`);
      out[name] = value === 'true';
    } else if (kind === 'number') {
      const n = value === 'Infinity' ? Infinity : Number(value);
      if (value === '' || Number.isNaN(n) || n < 0) throw new UsageError(`${flag}: ${name} needs a number ≥ 0, got "${value}"`);
      out[name] = n;
    } else {
      out[name] = value;
    }
  }
  return out as Partial<TransportFaults>;
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
      case '--slow-writes': p.opts.transport = { ...p.opts.transport, ...slowWrites(flag, value()) }; break;
      case '--transport': p.opts.transport = { ...p.opts.transport, ...transportSwitches(flag, value()) }; break;
      case '--stats-file': p.statsFile = value(); break;
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
  // the schemas' validators ready before the first request (the kept ones, or compiled once and kept):
  // compiled on first use, they cost the first requests of each resource ~0.6 s of CPU in all
  usePrecompiledValidators(storecheckCacheDir(), { compileIfMissing: true });
  let server;
  try {
    server = await startReferenceServer(opts);
  } catch (e) {
    process.stderr.write(`reference: cannot start: ${(e as Error).message}\n`);
    return 1;
  }
  const servingFrom = process.cpuUsage();
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
  if (parsed.statsFile) {
    try {
      writeFileSync(parsed.statsFile, JSON.stringify(statsOf(server, servingFrom)) + '\n');
    } catch (e) {
      process.stderr.write(`reference: cannot write --stats-file: ${(e as Error).message}\n`);
      return 1;
    }
  }
  return 0;
}

/** What --stats-file holds: the requests served and the CPU time (whole process, and since listening). */
function statsOf(server: { stats: RequestStats }, servingFrom: NodeJS.CpuUsage) {
  const { reset: _, ...stats } = server.stats;
  const total = process.cpuUsage();
  const serving = process.cpuUsage(servingFrom);
  const ms = (u: NodeJS.CpuUsage) => Math.round((u.user + u.system) / 1000);
  return { ...stats, cpuMs: ms(total), servingCpuMs: ms(serving), maxRssKb: process.resourceUsage().maxRSS };
}

main(process.argv.slice(2)).then((code) => {
  if (code !== 0) process.exitCode = code;
});
