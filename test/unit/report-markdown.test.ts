import { describe, expect, it } from 'vitest';
import { mdCode, mdFence, mdText, renderMarkdown } from '../../src/report/markdown.js';
import { HOSTILE, conformantReport, hostileReport, nonConformantReport } from '../fixtures/reports/build.js';

describe('renderMarkdown', () => {
  const md = renderMarkdown(nonConformantReport());

  it('has the header: target, tool version, seed, depth, started, duration, requests, verdict', () => {
    expect(md).toMatch(/^# storecheck report: .*NON-CONFORMANT/);
    for (const text of ['https://store.example.test', 'storecheck 0.1.0', '`424242`', 'standard', '2025-03-14 09:26:53 UTC', '1 min 23 s', '1312', '**Verdict: non-conformant**']) {
      expect(md).toContain(text);
    }
  });

  it('says how the run used its slots when the report has the figures, and nothing of them otherwise', () => {
    const report = nonConformantReport();
    expect(md).not.toContain('| Slots |');
    report.run.slots = { heldS: 201.6, meanHeldMs: 42, used: 0.84 };
    expect(renderMarkdown(report)).toContain('| Slots | a slot held 42 ms a request · 84 % of ' + report.run.concurrency + ' slots used |');
  });

  it('has the summary counts', () => {
    expect(md).toContain('| total | passed | failed | errors | expected fail | unexpected pass | skipped |');
    expect(md).toContain('| 20 | 14 | 2 | 1 | 1 | 1 | 1 |');
  });

  it('has the resources × groups matrix with the worst status and counts per cell', () => {
    const header = md.split('\n').find((l) => l.startsWith('| resource |'))!;
    expect(header).toBe('| resource | conventions | format | lifecycle | filters | pagination | versions | auth | limits | store |');
    const product = md.split('\n').find((l) => l.startsWith('| **product** |'))!;
    const cells = product.split(' | ');
    expect(cells[4]).toBe('❌ 2 failed'); // filters
    expect(cells[3]).toBe('🟡 1 expected fail, 1 passed'); // lifecycle
    expect(cells[8]).toBe('✅ 1 passed, 1 skipped'); // limits
    expect(md).toContain('| **cross-resource** |');
    expect(md).toContain('⚠️ 1 error');
  });

  it('has the observations table', () => {
    expect(md).toContain('| key | value | detail |');
    expect(md).toContain('| `pagination.defaultPageSize` | `50` | get without pagination returned 50 of 312 products |');
    expect(md).toContain('`{"min":true,"max":true}`');
  });

  it('has each failure with id, title, section, level, message, expected vs actual, reproducer', () => {
    expect(md).toContain('## Failures (2)');
    expect(md).toContain('#### ❌ `product.filter.price.range`: price\\_min / price\\_max bound price');
    expect(md).toContain('**Spec:** §4 Filter naming');
    expect(md).toContain('**Level:** must');
    expect(md).toContain('- **Message:** price\\_max=10.00 returned a record with price 12.50');
    expect(md).toContain('**Expected**\n\n```json\n{\n  "filter": {\n    "price_max": "10.00"\n  },');
    expect(md).toContain('**Actual**\n\n```json\n{\n  "id": "0b6c1e2a-51f4-4d2e-9a53-1c1f0e7c2b11",');
    expect(md).toContain("```sh\ncurl -sS -X POST 'https://store.example.test/api/v1/product/get'");
    expect(md).toContain('- Property replay: seed `424242`, path `3:1:0`');
    expect(md).toContain('- Command: `npx storecheck run --only product.filter.price.range --seed 424242 --path 3:1:0`');
    expect(md).toContain('## Errors (1)');
  });

  it('has baseline, expectations and cleanup sections', () => {
    expect(md).toContain('## Baseline');
    expect(md).toContain('❌ **regression**');
    expect(md).toContain('- New failures (1): `product.filter.visible`');
    expect(md).toContain('| `pagination.defaultPageSize` | `100` | `50` |');
    expect(md).toContain('Stale entries (match no check; remove them): `page.filter.*`');
    expect(md).toContain('## Cleanup\n\nCreated 16, deleted 13 (read back gone), could not verify 2, left behind 1 (still there when read back): `product 5d1c7a4e-0000-4000-8000-000000000001`.');
    // what no read-back could speak for is told apart from what is left behind, with the reason
    expect(md).toContain('Could not verify (no usable read-back: they may be gone or still there):\n\n| resource | records | why |');
    expect(md).toContain('| page | 2 | the read-back got no answer (TIMEOUT: no complete answer within 15000 ms) |');
    // and how to retry
    expect(md).toContain('```sh\nstorecheck sweep --ledger reports/run/ledger.jsonl --base-url https://store.example.test\n```');
  });

  it('omits baseline and cleanup when absent; a conformant run says so', () => {
    const ok = renderMarkdown(conformantReport());
    expect(ok).toContain('CONFORMANT');
    expect(ok).toContain('No check failed.');
    expect(ok).not.toContain('## Baseline');
    expect(ok).not.toContain('## Cleanup');
  });

  it('escapes hostile text: no raw HTML, no broken tables or fences', () => {
    const h = renderMarkdown(hostileReport());
    // code (fenced blocks and code spans) is shown literally by every renderer; the rest must hold no raw HTML
    const outsideFences = h.replace(/^(`{3,})[^\n]*\n[\s\S]*?\n\1$/gm, '').replace(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g, '');
    expect(outsideFences).not.toContain('<script');
    expect(outsideFences).not.toContain('<img');
    expect(h).toContain('&lt;script&gt;');
    // every table row of the observations table still has 3 cells
    const obsRow = h.split('\n').find((l) => l.startsWith('| `evil.'))!;
    expect(obsRow.replace(/\\\|/g, '').split('|').length - 2).toBe(3);
    expect(h).toContain(HOSTILE); // inside fenced blocks, as literal text
  });

  it('escaping helpers', () => {
    expect(mdText('a|b *c* <d> & e\nf')).toBe('a\\|b \\*c\\* &lt;d&gt; &amp; e f');
    expect(mdCode('a`b')).toBe('``a`b``');
    expect(mdCode('a|b', true)).toBe('`a\\|b`');
    expect(mdFence('x\n```\ny', 'json')).toBe('````json\nx\n```\ny\n````');
  });
});
