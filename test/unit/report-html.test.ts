import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { LONG_VALUE, check, conformantReport, hostileReport, makeReport, nonConformantReport, wideReport } from '../fixtures/reports/build.js';
import { htmlTagProblems } from '../fixtures/reports/xml.js';

/** Every src/href/action/... attribute value in a tag that is not an in-page link, and CSS url()/@import. */
function externalRefs(html: string): string[] {
  const refs: string[] = [];
  // escaped text cannot hold '<', so every '<name' starts a real tag
  for (const tag of html.matchAll(/<[a-zA-Z][^>]*>/g)) {
    for (const m of tag[0].matchAll(/\s(?:src|href|action|formaction|poster|data|srcset|background)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const v = m[2] ?? m[3] ?? m[4] ?? '';
      if (!v.startsWith('#')) refs.push(v);
    }
  }
  for (const m of html.matchAll(/url\(|@import/gi)) refs.push(m[0]);
  return refs;
}

describe('renderHtml', () => {
  const html = renderHtml(nonConformantReport());

  it('is one self-contained page: no external reference of any kind', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(externalRefs(html)).toEqual([]);
    expect(html).not.toMatch(/<link/i);
    expect(html).not.toMatch(/<script[^>]+src/i);
    expect(html).not.toMatch(/<iframe|<object|<embed/i);
    // http(s) URLs only as text: the target and the evidence, never in an attribute
    for (const m of html.matchAll(/https?:\/\//g)) {
      const before = html.slice(0, m.index);
      const lastTag = before.lastIndexOf('<');
      const lastClose = before.lastIndexOf('>');
      const inTag = lastTag > lastClose && !/^<meta http-equiv/.test(before.slice(lastTag));
      expect(inTag, `URL inside a tag near ${html.slice(m.index! - 40, m.index! + 20)}`).toBe(false);
    }
    expect(html).toContain('<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;;');
  });

  it('says how the run used its slots when the report has the figures, and nothing of them otherwise', () => {
    const report = nonConformantReport();
    expect(html).not.toContain('>Slots<');
    report.run.slots = { heldS: 201.6, meanHeldMs: 42, used: 0.84 };
    const shown = renderHtml(report);
    expect(shown).toContain('>Slots<');
    expect(shown).toContain(`a slot held 42 ms a request · 84 % of ${report.run.concurrency} slots used`);
  });

  it('has balanced tags', () => {
    expect(htmlTagProblems(html)).toEqual([]);
  });

  it('has the banner coloured by verdict, the matrix, the legend, observations, failures and the check list', () => {
    expect(html).toMatch(/<header class="banner v-non-conformant" id="summary" data-verdict="non-conformant">/);
    for (const id of ['matrix', 'legend', 'observations', 'failures', 'errors', 'expected', 'baseline', 'checks', 'checks-table', 'cleanup']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('<td class="s-failed"><a href="#c-product.filter.price.range-');
    expect(html).toMatch(/data-resource="product" data-group="filters"[^>]*><span class="w">failed<\/span><span class="n"><span class="c">2&nbsp;failed<\/span><\/span>/);
    expect(renderHtml(conformantReport())).toContain('class="banner v-conformant"');
  });

  it('shows each failure with its spec section, expected and actual side by side, evidence and reproducer', () => {
    const card = html.slice(html.indexOf('<article class="card s-failed" id="f-product.filter.price.range'));
    const end = card.indexOf('</article>');
    const one = card.slice(0, end);
    expect(one).toContain('<span class="spec">§4 Filter naming</span>');
    expect(one).toMatch(/<h4>Expected<\/h4><pre>\{\n {2}&quot;filter&quot;/);
    expect(one).toContain('<h4>Actual</h4>');
    expect(one).toContain('<h4>Request</h4><pre>POST https://store.example.test/api/v1/product/get');
    expect(one).toContain('<pre class="copy" title="select to copy">curl -sS -X POST');
  });

  it('says what the cleanup left behind, what it could not verify (and why), and the sweep command that retries it', () => {
    expect(html).toContain('<span class="bad">left behind 1</span> (still there when read back)');
    expect(html).toContain('<strong>could not verify 2</strong>');
    expect(html).toContain('<tr><td>page</td><td>2</td><td>the read-back got no answer (TIMEOUT: no complete answer within 15000 ms)</td></tr>');
    expect(html).toContain('>Cleanup: 1 left behind, 2 not verified</a>');
    expect(html).toContain('<pre><code>storecheck sweep --ledger reports/run/ledger.jsonl --base-url https://store.example.test</code></pre>');
  });

  it('every matrix link and in-page link points at an element of the page', () => {
    const ids = new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));
    const targets = [...html.matchAll(/href="#([^"]+)"/g)].map((m) => m[1]);
    expect(targets.length).toBeGreaterThan(10);
    for (const t of targets) expect(ids.has(t), t).toBe(true);
  });

  it('escapes a hostile target: ids, messages, bodies, headers, observation keys and values', () => {
    const h = renderHtml(hostileReport());
    expect(h.match(/<script/g)).toHaveLength(1); // ours, the filter script
    expect(h).not.toContain('<img');
    expect(h).not.toMatch(/<[^>]*\sonerror=/i);
    expect(h).toContain('&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;');
    expect(h).not.toContain('</pre><script');
    expect(h).not.toMatch(/[\u0000\u0007\uFFFE]/);
    expect(htmlTagProblems(h)).toEqual([]);
    expect(externalRefs(h)).toEqual([]);
    // hostile ids become safe anchors
    for (const m of h.matchAll(/\sid="([^"]*)"/g)) expect(m[1]).toMatch(/^[A-Za-z0-9_.-]+$/);
  });

  it('truncates huge bodies', () => {
    const r = nonConformantReport();
    const failed = r.checks.find((c) => c.status === 'failed')!;
    failed.evidence![0].response!.body = 'x'.repeat(200_000);
    const h = renderHtml(r);
    expect(h.length).toBeLessThan(100_000);
    expect(h).toMatch(/more characters not shown/);
  });
});

describe('renderHtml: matrix, copy buttons, long values (issue 22)', () => {
  const html = renderHtml(wideReport());

  it('puts each matrix in a box that scrolls sideways, its resource column sticky', () => {
    const matrix = html.slice(html.indexOf('<section id="matrix">'), html.indexOf('</section>', html.indexOf('<section id="matrix">')));
    expect(matrix).toMatch(/<div class="matrix-box" role="region" aria-label="resources × rule groups" tabindex="0">\n<table class="matrix">/);
    expect(matrix.match(/<th class="res">/g)).toHaveLength(1 + 16); // the header and 15 resources + cross-resource
    expect(html).toMatch(/\.matrix-box,\.table-box\{overflow-x:auto;max-width:100%/);
    expect(html).toMatch(/table\.matrix th\.res\{[^}]*position:sticky;left:0/);
    // the coverage grid the same way, the check list in a box of its own
    expect(renderHtml(nonConformantReport())).toContain('<div class="table-box">\n<table class="checks" id="checks-table">');
  });

  it('a cell wraps between its counts, and inside one only after its number ("1 unexpected" / "pass")', () => {
    expect(html).toMatch(/<span class="n"><span class="c">2\d&nbsp;failed<\/span> · <span class="c">3\d&nbsp;passed<\/span> · <span class="c">\d&nbsp;skipped<\/span><\/span>/);
    expect(html).toContain('<span class="c">1&nbsp;unexpected pass</span>');
  });

  it('has a copy button beside each reproducer command and curl, shown by the inline script (allowed by the CSP hash)', () => {
    const withRepro = wideReport().checks.filter((c) => c.reproducer);
    const buttons = html.match(/<div class="copyable"><button type="button" class="copy-btn" aria-label="copy the (command|curl command)" hidden>copy<\/button><pre class="copy"/g) ?? [];
    expect(buttons).toHaveLength(withRepro.length * 2);
    const script = /<script>([\s\S]*)<\/script>/.exec(html)![1];
    expect(script).toContain("querySelectorAll('button.copy-btn')");
    expect(script).toContain('navigator.clipboard');
    expect(script).toContain("execCommand('copy')");
    const hash = /script-src &#39;sha256-([^&]+)&#39;/.exec(html)![1];
    expect(createHash('sha256').update(script, 'utf8').digest('base64')).toBe(hash);
  });

  it('shortens long generated strings in messages and values, the full value one click away', () => {
    const r = makeReport([check({
      id: 'coupon.filters.count-agrees.code', status: 'failed',
      message: `coupon count with code=[${JSON.stringify(LONG_VALUE)}] answered 0`,
      expected: { code: LONG_VALUE, count: '1' }, actual: { count: '0', short: 'abc' },
    })]);
    const h = renderHtml(r);
    const card = h.slice(h.indexOf('<article class="card s-failed"'), h.indexOf('</article>'));
    expect(card).toContain('<div class="msg">coupon count with code=[&quot;sc7f3a9c01-9dhe1m03V<span class="cut" title="42 characters not shown">…</span>Éw#3KFRôz«&quot;<span class="len"> (72 chars)</span>] answered 0</div>');
    expect(card).toContain('<details class="full"><summary>the message in full (1 long value shortened above)</summary><pre>coupon count with code=[&quot;sc7f3a9c01-9dhe1m03Vo😂');
    expect(card).toMatch(/<h4>Expected<\/h4><pre>\{\n {2}&quot;code&quot;: &quot;sc7f3a9c01-9dhe1m03V<span class="cut"[^>]*>…<\/span>Éw#3KFRôz«&quot;<span class="len"> \(72 chars\)<\/span>,/);
    expect(card).toContain('<details class="full"><summary>in full (1 long string shortened above)</summary><pre>{\n  &quot;code&quot;: &quot;sc7f3a9c01-9dhe1m03Vo😂');
    // nothing long on the actual side: as before, no details
    expect(card).toMatch(/<h4>Actual<\/h4><pre>\{\n {2}&quot;count&quot;: &quot;0&quot;,\n {2}&quot;short&quot;: &quot;abc&quot;\n\}<\/pre><\/div>/);
    expect(htmlTagProblems(h)).toEqual([]);
  });

  it('a hostile long value stays escaped in its short and its full form', () => {
    const evil = `<img src=x onerror=alert(1)>${'<evil>'.repeat(30)}`;
    const h = renderHtml(makeReport([check({ id: 'a.b', status: 'failed', message: `got ${JSON.stringify(evil)}`, expected: evil, actual: [evil] })]));
    expect(h).not.toContain('<img');
    expect(h).not.toContain('<evil>');
    expect(h).toContain('&lt;evil&gt;');
    expect(htmlTagProblems(h)).toEqual([]);
  });

  it('is still one self-contained page with balanced tags', () => {
    expect(externalRefs(html)).toEqual([]);
    expect(htmlTagProblems(html)).toEqual([]);
  });
});
