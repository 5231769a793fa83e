import { describe, expect, it } from 'vitest';
import { renderHtml } from '../../src/report/html.js';
import { conformantReport, hostileReport, nonConformantReport } from '../fixtures/reports/build.js';
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

  it('has balanced tags', () => {
    expect(htmlTagProblems(html)).toEqual([]);
  });

  it('has the banner coloured by verdict, the matrix, the legend, observations, failures and the check list', () => {
    expect(html).toMatch(/<header class="banner v-non-conformant" id="summary" data-verdict="non-conformant">/);
    for (const id of ['matrix', 'legend', 'observations', 'failures', 'errors', 'expected', 'baseline', 'checks', 'checks-table', 'cleanup']) {
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain('<td class="s-failed"><a href="#c-product.filter.price.range-');
    expect(html).toMatch(/data-resource="product" data-group="filters"[^>]*><span class="w">failed<\/span><span class="n">2 failed<\/span>/);
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
