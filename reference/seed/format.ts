/**
 * The canonical "normalized" scalar forms of the seed (agreed with the server,
 * which renders per operation): every scalar a string, decimals with a dot,
 * DateTime 'YYYY-MM-DD HH:MM:SS', dates 'YYYY-MM-DD'.
 */

/** A fixed-point amount held as an integer count of 10^-scale units -> '12.34'. */
export function fixed(units: number, scale = 2): string {
  const neg = units < 0;
  const u = Math.abs(Math.round(units));
  if (scale === 0) return (neg ? '-' : '') + String(u);
  const p = 10 ** scale;
  const frac = String(u % p).padStart(scale, '0');
  return (neg ? '-' : '') + String(Math.floor(u / p)) + '.' + frac;
}

/** cents -> '24.99' */
export function money(cents: number): string {
  return fixed(cents, 2);
}

export function bool(b: boolean): string {
  return b ? 'true' : 'false';
}

export function int(n: number): string {
  return String(Math.trunc(n));
}

/** epoch seconds (UTC) -> 'YYYY-MM-DD HH:MM:SS' */
export function dateTime(sec: number): string {
  const iso = new Date(sec * 1000).toISOString();
  return iso.slice(0, 10) + ' ' + iso.slice(11, 19);
}

/** epoch seconds (UTC) -> 'YYYY-MM-DD' */
export function dateOnly(sec: number): string {
  return new Date(sec * 1000).toISOString().slice(0, 10);
}

/** 'YYYY-MM-DD[ HH:MM:SS]' (UTC) -> epoch seconds */
export function epoch(s: string): number {
  return Math.floor(Date.parse(s.replace(' ', 'T') + (s.length > 10 ? 'Z' : 'T00:00:00Z')) / 1000);
}

export const DAY = 86_400;

const ASCII = /^[\x00-\x7f]*$/;

/** Strip diacritics and ligatures: 'Théière brûlée œuf' -> 'Theiere brulee oeuf'. */
export function fold(s: string): string {
  if (ASCII.test(s)) return s;
  return s
    .replace(/œ/g, 'oe').replace(/Œ/g, 'OE').replace(/æ/g, 'ae').replace(/Æ/g, 'AE')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** 'Crème brûlée à l’érable' -> 'creme-brulee-a-l-erable' */
export function slugify(s: string): string {
  return fold(s).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** for e-mail local parts: 'Marie-Ève' -> 'marie-eve', "O'Neil" -> 'oneil' */
export function emailPart(s: string): string {
  return fold(s).toLowerCase().replace(/[^a-z0-9-]+/g, '');
}

export function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** A 12-digit body plus its EAN-13 check digit. */
export function ean13(body12: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body12[i]) * (i % 2 === 0 ? 1 : 3);
  return body12 + String((10 - (sum % 10)) % 10);
}

/** Cut at a word boundary so the result holds at most max characters. */
export function clip(s: string, max: number): string {
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const sp = cut.lastIndexOf(' ');
  return (sp > max / 2 ? cut.slice(0, sp) : cut).replace(/[\s,.;:–-]+$/, '') + '…';
}
