/**
 * Long generated strings, shortened for a person to read (issue 22): a failure line quoting a
 * 255-character value or a 72-character mix of scripts and emoji is hard to read and harder to
 * compare. A string longer than LONG_STRING code points shows its first and last characters and its
 * length (`"sc6fba6bd5-9dhe1m03Vo…3KFRôz«" (72 chars)`); the views keep the full value one click
 * away. Ids (a GUID is 36 characters), dates and numbers stay whole. Pure: no I/O.
 */
import { escapeHtml } from './common.js';

/** Strings longer than this many code points are shortened. */
export const LONG_STRING = 48;
/** Code points kept from the start and from the end of a shortened string. */
const HEAD = 20;
const TAIL = 10;

/** A string's length as a person counts characters (code points; an emoji is one). */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

interface Cut { head: string; tail: string; length: number }

/** The start and end of a long string (whole code points), or undefined when it is short enough to show. */
export function cutString(s: string, long = LONG_STRING): Cut | undefined {
  const points = [...s];
  if (points.length <= long) return undefined;
  return { head: points.slice(0, HEAD).join(''), tail: points.slice(-TAIL).join(''), length: points.length };
}

/** A JSON string literal of `s`, shortened when long: plain text and HTML (the cut marked). */
function literal(s: string): { text: string; html: string; cut: boolean } {
  const c = cutString(s);
  if (!c) {
    const text = JSON.stringify(s);
    return { text, html: escapeHtml(text), cut: false };
  }
  const head = JSON.stringify(c.head).slice(0, -1);
  const tail = JSON.stringify(c.tail).slice(1);
  const len = ` (${c.length} chars)`;
  return {
    text: `${head}…${tail}${len}`,
    html: `${escapeHtml(head)}<span class="cut" title="${c.length - HEAD - TAIL} characters not shown">…</span>${escapeHtml(tail)}<span class="len">${escapeHtml(len)}</span>`,
    cut: true,
  };
}

/** A double-quoted JSON string literal inside free text (a message quoting a value). */
const QUOTED = /"(?:[^"\\\n]|\\.)*"/g;
/** What follows a quoted value whose length its message already gives. */
const SAYS_LENGTH = /^\s*\(\d+ (?:code points|chars|characters)\)/;

/**
 * Free text (a check's message) with every long quoted value shortened: plain text, HTML, and how
 * many values were shortened. Only quotes that parse as JSON strings are touched.
 */
export function shortenQuoted(text: string): { text: string; html: string; shortened: number } {
  let plain = '';
  let html = '';
  let shortened = 0;
  let at = 0;
  for (const m of text.matchAll(QUOTED)) {
    let value: unknown;
    try {
      value = JSON.parse(m[0]);
    } catch {
      continue;
    }
    if (typeof value !== 'string' || !cutString(value)) continue;
    // a value the message already shortened and measured itself ("…" (255 code points))
    if (SAYS_LENGTH.test(text.slice(m.index! + m[0].length))) continue;
    const l = literal(value);
    plain += text.slice(at, m.index) + l.text;
    html += escapeHtml(text.slice(at, m.index)) + l.html;
    at = m.index! + m[0].length;
    shortened++;
  }
  return { text: plain + text.slice(at), html: html + escapeHtml(text.slice(at)), shortened };
}

/**
 * A JSON value pretty-printed as JSON.stringify(value, null, 2) does, with long strings (values
 * and keys) shortened; at most `max` characters of text (then a line saying how much was left off).
 */
export function shortJson(value: unknown, max: number): { text: string; html: string; shortened: number; truncated: boolean } {
  const lines: Array<{ text: string; html: string }> = [];
  let shortened = 0;
  let line = { text: '', html: '' };
  const put = (text: string, html = escapeHtml(text)) => {
    line.text += text;
    line.html += html;
  };
  const str = (s: string) => {
    const l = literal(s);
    if (l.cut) shortened++;
    put(l.text, l.html);
  };
  const newline = (indent: string) => {
    lines.push(line);
    line = { text: indent, html: indent };
  };
  const walk = (v: unknown, indent: string): void => {
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') return put('null');
    if (typeof v === 'string') return str(v);
    if (typeof v === 'number') return put(Number.isFinite(v) ? String(v) : 'null');
    if (typeof v === 'bigint') return put(v.toString());
    if (typeof v !== 'object') return put(String(v));
    if (typeof (v as { toJSON?: unknown }).toJSON === 'function') return walk((v as { toJSON(): unknown }).toJSON(), indent);
    const inner = `${indent}  `;
    if (Array.isArray(v)) {
      if (!v.length) return put('[]');
      put('[');
      v.forEach((x, i) => {
        newline(inner);
        walk(x, inner);
        if (i < v.length - 1) put(',');
      });
      newline(indent);
      return put(']');
    }
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined && typeof x !== 'function' && typeof x !== 'symbol');
    if (!entries.length) return put('{}');
    put('{');
    entries.forEach(([k, x], i) => {
      newline(inner);
      str(k);
      put(': ');
      walk(x, inner);
      if (i < entries.length - 1) put(',');
    });
    newline(indent);
    put('}');
  };
  if (value === undefined) put('undefined');
  else walk(value, '');
  lines.push(line);
  let text = '';
  let html = '';
  let k = 0;
  for (; k < lines.length; k++) {
    if (k > 0 && text.length + lines[k].text.length + 1 > max) break;
    text += (k ? '\n' : '') + lines[k].text;
    html += (k ? '\n' : '') + lines[k].html;
  }
  const truncated = k < lines.length;
  if (truncated) {
    const note = `\n… (${lines.length - k} more lines not shown)`;
    text += note;
    html += escapeHtml(note);
  }
  return { text, html, shortened, truncated };
}
