/**
 * Spec facts live in one place: the schemas (schemas/*.schema.json), read and exported by the
 * schema model (src/schema/model.ts: GET_CAP, TEXT_MAX_LENGTH, INTEGER_DIGITS, ZERO_GUID, the
 * GUID/DateTime/Date patterns, each property's own limit). This test reads the code (src/,
 * suites/, generators/, reference/, scripts/) with the TypeScript parser and fails on a restated
 * fact outside the model:
 * - the get cap 1000 as a number (a 1000 multiplying or dividing is a unit conversion, ms ↔ s:
 *   never the cap); 255 and 65535 (§8 string limits) as numbers; `?? 11`, `digits: 11` and a
 *   `{ digits, scale }` limit written out (fallbacks for limits every property has);
 * - the all-zero GUID and the `$STORE_API_KEY` placeholder in a string (the placeholder's one home
 *   is src/client/redact.ts, REDACTED);
 * - a regular expression that accepts exactly what common.schema.json's GUID, DateTime or Date
 *   pattern accepts, however it is spelled (judged on sample values, not on its text).
 * Comments are not code: prose may cite the spec. Test fixtures are not searched (a fixture
 * transcribing the spec on purpose, test/fixtures/spec-table.ts, is what the schemas are checked
 * against). What must stay is listed in ALLOWED, each line with its reason.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { DATE_PATTERN, DATETIME_PATTERN, GUID_PATTERN, SPEC_FACTS, ZERO_GUID } from '../../src/schema/model.js';
import { REDACTED } from '../../src/client/redact.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const SEARCHED = ['src', 'suites', 'generators', 'reference', 'scripts'];
/** where the facts are read from the schemas: the model, and the placeholder's home */
const HOMES: Record<string, string> = {
  'src/schema/model.ts': 'the schema model: reads every fact from the schemas',
  'src/schema/sources.ts': 'reads the schema documents',
  'src/client/redact.ts': 'REDACTED, the one spelling of the $STORE_API_KEY placeholder',
};

/** Code that holds one of the searched numbers for another reason: file, the line's text (trimmed, a substring), why. */
const ALLOWED: Array<{ file: string; line: string; why: string }> = [
  { file: 'src/report/common.ts', line: 'if (ms < 1000)', why: 'a duration under a second is shown in ms' },
  { file: 'src/client/gate.ts', line: 'faster < 1_000 ? 0', why: 'a gap under 1 ms (in µs) is no gap' },
  { file: 'reference/main.ts', line: "case '--port': p.opts.port = int(flag, value(), 0, 65535)", why: 'the largest TCP port' },
  { file: 'reference/server.ts', line: ".repeat(1000)", why: 'the filler of huge answers: 1000-character names, 1000 records a chunk' },
  { file: 'reference/seed/builders.ts', line: 'IMG_${pad(1000 + i, 4)}', why: 'seed data: image file numbers start at 1000' },
  { file: 'reference/seed/builders.ts', line: '250, 500, 750, 1000])),', why: 'seed data: a product size' },
  { file: 'reference/seed/builders.ts', line: 'limittotal: int(rng.pick([0, 0, 50, 100, 500, 1000]))', why: 'seed data: a coupon limit' },
  { file: 'reference/seed.ts', line: 'startingOrderNumber: 1000 + 100', why: 'seed data: the first order number' },
  { file: 'src/schema/value-classes.ts', line: 'oracle: 1000, sqlServer: 2100', why: "Oracle's limit of one IN list (ORA-01795), not the get cap: the class list.many crosses it" },
];

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(ROOT, path)).isDirectory()) return name === 'node_modules' ? [] : filesUnder(path);
    return /\.(ts|mts|mjs)$/.test(name) ? [path] : [];
  });
}

/** Samples each form must accept / refuse, and a restatement accepts and refuses the same. */
const GUIDS = { yes: ['3f2504e0-4f89-11d3-9a0c-0305e82c3301', '3F2504E0-4F89-11D3-9A0C-0305E82C3301', ZERO_GUID], no: ['3f2504e04f8911d39a0c0305e82c3301', '3f2504e0-4f89-11d3-9a0c-0305e82c330', 'x3f2504e0-4f89-11d3-9a0c-0305e82c3301', '3f2504e0-4f89-11d3-9a0c-0305e82c33011'] };
const DATETIMES = { yes: ['2024-01-02 03:04:05', '1999-12-31 23:59:59'], no: ['2024-01-02', '2024-01-02T03:04:05', '2024-01-02 03:04:05x', 'x2024-01-02 03:04:05', '2024-01-02 03:04'] };
const DATES = { yes: ['2024-01-02', '1999-12-31'], no: ['2024-01-02 03:04:05', '2024-01-02x', 'x2024-01-02', '2024-1-2', '20240102'] };
const FORMS = [
  { name: 'the GUID pattern of common.schema.json (GUID_PATTERN)', samples: GUIDS, pattern: GUID_PATTERN },
  { name: 'the DateTime pattern of common.schema.json (DATETIME_PATTERN)', samples: DATETIMES, pattern: DATETIME_PATTERN },
  { name: 'the Date pattern of common.schema.json (DATE_PATTERN)', samples: DATES, pattern: DATE_PATTERN },
];

/** The form a regular expression restates: it accepts every sample the form accepts and refuses every one it refuses. */
function restatedForm(re: RegExp): string | undefined {
  const test = (s: string) => { re.lastIndex = 0; return re.test(s); };
  return FORMS.find((f) => f.samples.yes.every(test) && !f.samples.no.some(test))?.name;
}

interface Finding { file: string; line: number; text: string; what: string }

function scan(file: string): Finding[] {
  return scanText(file, readFileSync(join(ROOT, file), 'utf8'));
}

function scanText(file: string, text: string): Finding[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.ts') || file.endsWith('.mts') ? ts.ScriptKind.TS : ts.ScriptKind.JS);
  const out: Finding[] = [];
  const lines = text.split('\n');
  const report = (node: ts.Node, what: string) => {
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
    out.push({ file, line: line + 1, text: lines[line].trim(), what });
  };
  const visit = (node: ts.Node): void => {
    // numbers written in decimal (a 0xff is a byte mask, not a string limit)
    if (ts.isNumericLiteral(node) && /^[0-9_]+$/.test(node.getText(source))) {
      const n = Number(node.text);
      const parent = node.parent;
      const op = ts.isBinaryExpression(parent) ? parent.operatorToken.kind : undefined;
      const conversion = op === ts.SyntaxKind.AsteriskToken || op === ts.SyntaxKind.SlashToken;
      if (n === SPEC_FACTS.getCap && !conversion) report(node, `${n}: the get cap is GET_CAP`);
      if (n === SPEC_FACTS.textMaxLength || n === 65535) report(node, `${n}: a string limit is the property's own maxLength (or TEXT_MAX_LENGTH)`);
      if (n === SPEC_FACTS.integerDigits && op === ts.SyntaxKind.QuestionQuestionToken) report(node, `?? ${n}: an integer limit is the property's own (integerDigitsOf)`);
      if (n === SPEC_FACTS.integerDigits && ts.isPropertyAssignment(parent) && /^(digits|integerDigits)$/.test(parent.name.getText(source))) {
        report(node, `digits: ${n} written out: an integer limit is the property's own (integerDigitsOf)`);
      }
      // { digits: 8, scale: 2 }: a decimal limit written out
      if (ts.isPropertyAssignment(parent) && parent.name.getText(source) === 'scale' && ts.isObjectLiteralExpression(parent.parent)) {
        const digits = parent.parent.properties.find((q) => ts.isPropertyAssignment(q) && q.name.getText(source) === 'digits');
        if (digits && ts.isPropertyAssignment(digits) && ts.isNumericLiteral(digits.initializer)) report(node, `{ digits: ${digits.initializer.text}, scale: ${n} } written out: a decimal limit is the property's own (decimalLimitOf)`);
      }
    } else if (ts.isStringLiteralLike(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const value = node.text;
      if (value.includes(ZERO_GUID)) report(node, 'the all-zero GUID is ZERO_GUID');
      if (value.includes(REDACTED)) report(node, `the ${REDACTED} placeholder is REDACTED (src/client/redact.ts)`);
      if (/[[\\{]/.test(value)) {
        let re: RegExp | undefined;
        try { re = new RegExp(value); } catch { re = undefined; }
        const form = re && restatedForm(re);
        if (form) report(node, `a string restating ${form}`);
      }
    } else if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(source);
      const m = /^\/(.*)\/([a-z]*)$/s.exec(literal)!;
      const form = restatedForm(new RegExp(m[1], m[2].replace('g', '').replace('y', '')));
      if (form) report(node, `a regular expression restating ${form}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

const files = SEARCHED.flatMap(filesUnder).filter((f) => !HOMES[f]);
const findings = files.flatMap(scan);

describe('spec facts are written only in the schemas and the schema model', () => {
  it('searches the code of every folder (and finds it)', () => {
    expect(files.length).toBeGreaterThan(150);
    for (const dir of SEARCHED) expect(files.some((f) => f.startsWith(`${dir}/`)), dir).toBe(true);
  });

  it('no spec literal outside the model but the allowed ones', () => {
    const unexplained = findings
      .filter((f) => !ALLOWED.some((a) => a.file === f.file && f.text.includes(a.line)))
      .map((f) => `${f.file}:${f.line}: ${f.what}\n    ${f.text}`);
    expect(unexplained, 'read the fact from src/schema/model.ts (or src/check/index.ts in a suite) instead').toEqual([]);
  });

  it('every allowed line is still there and still holds its literal (a stale entry would hide a new one)', () => {
    const stale = ALLOWED.filter((a) => !findings.some((f) => f.file === a.file && f.text.includes(a.line)));
    expect(stale).toEqual([]);
  });

  it('would catch each kind of restatement (the detector is not blind)', () => {
    const numbers = (code: string) => {
      const f = `scripts/__sample.ts`;
      return scanText(f, code).map((x) => x.what);
    };
    expect(numbers('const a = Math.min(n, 1000); const b = ms / 1000; const c = s * 1000;')).toHaveLength(1);
    expect(numbers('const d = p.maxLength ?? 255; const e = p.integerDigits ?? 11; const f = { digits: 8, scale: 2 }; const g = 0xff;')).toHaveLength(3);
    expect(numbers(`const h = '${ZERO_GUID}'; const i = \`x \${y} ${REDACTED}\`;`)).toHaveLength(2);
    const sample = (code: string) => {
      const source = ts.createSourceFile('x.ts', code, ts.ScriptTarget.Latest, true);
      let hits = 0;
      const visit = (n: ts.Node): void => {
        if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
          const m = /^\/(.*)\/([a-z]*)$/s.exec(n.getText(source))!;
          if (restatedForm(new RegExp(m[1], m[2]))) hits++;
        }
        ts.forEachChild(n, visit);
      };
      visit(source);
      return hits;
    };
    expect(sample('const a = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;')).toBe(1);
    expect(sample('const b = /^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$/;')).toBe(1);
    expect(sample('const c = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;')).toBe(1);
    // not a restatement: a prefix test, an ISO timestamp, a run tag
    expect(sample('const d = /^\\d{4}-\\d{2}-\\d{2}/; const e = /^\\d{4}-\\d{2}-\\d{2}T/; const f = /^sc[0-9a-f]{8}$/;')).toBe(0);
    for (const form of FORMS) expect(restatedForm(form.pattern), form.name).toBe(form.name);
  });
});
