/**
 * The readings of stack defaults (src/values/readings.ts): comparison under a
 * collation (and "cannot tell" where the readings do not model a character),
 * integer widths, excess decimal scale, 4-byte characters, date-only bounds,
 * UTC offsets, and the DST windows generated DateTimes keep out of —
 * measured against the time zones of the tz database with Intl.
 */
import { storeReading } from '../../suites/support/readings.js';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  EXACT_COLLATION, otherNormalForm, textUnderNormalization, astralUnder, changeAccent, clearOfDstGaps, compareWithDateOnlyBound, decimalUnderScale, describeOffset,
  flipAsciiCase, integerUnder, largestIntegerOfEveryWidth, largestIntegerUnder, letterCaseOf, looseText, modelledChar, padRight,
  sameUnderCollation, utcOffsetMinutes, daysFromCivil, textUnderTrimming, trimmedText, hasEdgeSpace, listUnderDuplicates, type Collation,
} from '../../src/values/index.js';

const SEED = Number(process.env.STORECHECK_SEED ?? 20261122);
const MYSQL_0900: Collation = { case: 'insensitive', accents: 'insensitive', trailingSpaces: 'significant' };
const MYSQL_GENERAL: Collation = { case: 'insensitive', accents: 'insensitive', trailingSpaces: 'ignored' };
const SQLSERVER: Collation = { case: 'insensitive', accents: 'sensitive', trailingSpaces: 'ignored' };
const UNKNOWN: Collation = { case: null, accents: null, trailingSpaces: null };

describe('sameUnderCollation', () => {
  it.each([
    // [a, b, exact, mysql 0900 ai_ci, mysql general_ci, sql server CI_AS]
    ['Élève', 'Élève', true, true, true, true],
    ['Élève', 'élève', false, true, true, true],
    ['Élève', 'Eleve', false, true, true, false],
    ['Élève', 'ELEVE', false, true, true, false],
    ['abc', 'abc ', false, false, true, true],
    ['ABC', 'abc  ', false, false, true, true],
    ['abc', ' abc', false, false, false, false],
    ['abc', 'abd', false, false, false, false],
    ['Жук', 'жук', false, true, true, true],
  ] as const)('%j vs %j', (a, b, exact, ai, general, sqlserver) => {
    expect(sameUnderCollation(a, b, EXACT_COLLATION)).toBe(exact);
    expect(sameUnderCollation(a, b, MYSQL_0900)).toBe(ai);
    expect(sameUnderCollation(a, b, MYSQL_GENERAL)).toBe(general);
    expect(sameUnderCollation(a, b, SQLSERVER)).toBe(sqlserver);
  });

  it('cannot tell where a character the readings do not model decides it (ß, œ, İ, ligatures)', () => {
    for (const [a, b] of [['Straße', 'STRASSE'], ['Œuvre', 'oeuvre'], ['İstanbul', 'istanbul'], ['ﬁle', 'file']]) {
      expect(sameUnderCollation(a, b, MYSQL_0900), `${a} ${b}`).toBeUndefined();
    }
    // but strings different under every reading are different whatever they hold
    expect(sameUnderCollation('Straße', 'Strasse!', MYSQL_0900)).toBe(false);
    // and characters both strings hold alike do not matter, only those where they differ
    expect(sameUnderCollation('Straße Abc', 'Straße abc', MYSQL_0900)).toBe(true);
    expect(sameUnderCollation('Straße Abc', 'Straße abc', EXACT_COLLATION)).toBe(false);
    expect(sameUnderCollation('œuvre x', 'œuvre x ', MYSQL_GENERAL)).toBe(true);
    expect(sameUnderCollation('œuvre', 'Œuvre', MYSQL_0900)).toBeUndefined();
    expect(modelledChar('é') && modelledChar('Ж') && modelledChar('漢') && modelledChar('«')).toBe(true);
    expect([...'ßœæøıİ™…'].some(modelledChar)).toBe(false);
  });

  it('cannot tell a difference in a part of the collation not observed; tells what every reading agrees on', () => {
    expect(sameUnderCollation('abc', 'ABC', UNKNOWN)).toBeUndefined();
    expect(sameUnderCollation('abc', 'abc ', { ...EXACT_COLLATION, trailingSpaces: null })).toBeUndefined();
    expect(sameUnderCollation('abc', 'abd', UNKNOWN)).toBe(false);
    expect(sameUnderCollation('abc', 'abc', UNKNOWN)).toBe(true);
    // a case difference under a known case reading, whatever the accents
    expect(sameUnderCollation('abc', 'ABC', { case: 'insensitive', accents: null, trailingSpaces: null })).toBe(true);
  });

  it('canonical equivalents (e + U+0301, é): apart under an exact collation and *_general_ci, one value under UCA ai and a canonical collation, unjudged when not observed', () => {
    const decomposed = 'Cafe\u0301 noir';
    const precomposed = decomposed.normalize('NFC');
    expect(precomposed).not.toBe(decomposed);
    expect(sameUnderCollation(decomposed, precomposed, EXACT_COLLATION)).toBe(false);
    expect(sameUnderCollation(decomposed, precomposed, { ...EXACT_COLLATION, normalization: 'insensitive' })).toBe(true);
    // accents ignored character by character (MySQL *_general_ci): é is e, e + U+0301 is e and a mark
    const generalCi: Collation = { ...MYSQL_GENERAL, normalization: 'sensitive' };
    expect(sameUnderCollation('Cafe noir', precomposed, generalCi)).toBe(true);
    expect(sameUnderCollation(decomposed, precomposed, generalCi)).toBe(false);
    expect(sameUnderCollation(decomposed, 'Cafe noir', generalCi)).toBe(false);
    // UCA at the first level (utf8mb4_0900_ai_ci): marks weigh nothing, so all three are one value
    const ucaAi: Collation = { ...MYSQL_0900, normalization: 'insensitive' };
    expect(sameUnderCollation(decomposed, precomposed, ucaAi)).toBe(true);
    expect(sameUnderCollation(decomposed, 'Cafe noir', ucaAi)).toBe(true);
    // not observed: the pair is not judged; letter case still tells 'CAFE' apart from both under an exact collation
    expect(sameUnderCollation(decomposed, precomposed, { ...EXACT_COLLATION, normalization: null })).toBeUndefined();
    expect(sameUnderCollation(decomposed, precomposed.toUpperCase(), { ...EXACT_COLLATION, normalization: null })).toBe(false);
  });

  it('the other normalization form of a string: NFC where it composes, NFD where it holds a precomposed letter, none for ASCII', () => {
    expect(otherNormalForm('Cafe\u0301')).toBe('Caf\u00e9');
    expect(otherNormalForm('Caf\u00e9')).toBe('Cafe\u0301');
    expect(otherNormalForm('Cafe')).toBeUndefined();
    expect(textUnderNormalization('nfc', 'Cafe\u0301')).toBe('Caf\u00e9');
    expect(textUnderNormalization('kept', 'Cafe\u0301')).toBe('Cafe\u0301');
  });

  it('is symmetric, and the exact collation is code point equality (property)', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
      for (const c of [EXACT_COLLATION, MYSQL_0900, MYSQL_GENERAL, SQLSERVER]) expect(sameUnderCollation(a, b, c)).toBe(sameUnderCollation(b, a, c));
      expect(sameUnderCollation(a, b, EXACT_COLLATION)).toBe(a === b);
    }), { seed: SEED, numRuns: 300 });
  });

  it('the variants a probe sends differ from their value in one part only', () => {
    expect(flipAsciiCase('Name-3a')).toBe('nAME-3A');
    expect(flipAsciiCase('123-漢')).toBeUndefined();
    expect(changeAccent('Ecole')).toBe('Écolé'.slice(0, 1) + 'cole');
    expect(changeAccent('Élève')).toBe('Elève');
    expect(changeAccent('xyz')).toBeUndefined();
    for (const v of ['Storecheck name', 'Élève «déjà»']) {
      const accent = changeAccent(v)!;
      expect(sameUnderCollation(v, flipAsciiCase(v)!, { ...EXACT_COLLATION, case: 'insensitive' })).toBe(true);
      expect(sameUnderCollation(v, accent, { ...EXACT_COLLATION, case: 'insensitive' })).toBe(false);
      expect(sameUnderCollation(v, accent, { ...EXACT_COLLATION, accents: 'insensitive' })).toBe(true);
      expect(sameUnderCollation(v, padRight(v), { ...EXACT_COLLATION, trailingSpaces: 'ignored' })).toBe(true);
      expect(sameUnderCollation(v, padRight(v), EXACT_COLLATION)).toBe(false);
    }
    expect(looseText('Œuvre  ')).toBe('oeuvre');
  });

  it("looseText's ASCII shortcut gives what the whole folding gives (decomposed, unmarked, lower case, expansions, no trailing spaces)", () => {
    const whole = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/ß/g, 'ss').replace(/æ/g, 'ae').replace(/œ/g, 'oe').replace(/ø/g, 'o').replace(/ +$/, '');
    fc.assert(fc.property(fc.string({ unit: 'binary-ascii', maxLength: 40 }), (s) => looseText(s) === whole(s)));
    // and beside non-ASCII text, the whole folding still runs
    expect(looseText('ÉLÈVE straße ')).toBe('eleve strasse');
  });
});

describe('integer widths', () => {
  it('the largest integer a column holds, and what it stores beyond', () => {
    expect(largestIntegerUnder('digits', 11)).toBe('99999999999');
    expect(largestIntegerUnder('32-bit refused', 11)).toBe('2147483647');
    expect(largestIntegerUnder('32-bit clamped', 4)).toBe('9999');
    expect(largestIntegerOfEveryWidth(11)).toBe('2147483647');
    expect(integerUnder('digits', '99999999999')).toBe('99999999999');
    expect(integerUnder('32-bit refused', '2147483648')).toBe('refused');
    expect(integerUnder('32-bit refused', '2147483647')).toBe('2147483647');
    expect(integerUnder('32-bit clamped', '99999999999')).toBe('2147483647');
    expect(integerUnder('32-bit clamped', '-99999999999')).toBe('-2147483648');
  });
});

describe('decimal scale', () => {
  it.each([
    ['1.006', 'rounded', '1.01'], ['1.006', 'truncated', '1.00'], ['1.006', 'refused', 'refused'],
    ['1.005', 'rounded', '1.01'], ['1.004', 'rounded', '1.00'], ['-1.005', 'rounded', '-1.01'], ['-1.009', 'truncated', '-1.00'],
    ['99.995', 'rounded', '100.00'], ['1.5', 'rounded', '1.5'], ['-0.001', 'truncated', '0.00'],
  ] as const)('%s, 2 decimals, %s → %s', (v, reading, want) => expect(decimalUnderScale(v, 2, reading)).toBe(want));
});

describe('4-byte characters', () => {
  it('kept, refused, replaced by ?', () => {
    expect(astralUnder('kept', 'a😀b')).toBe('a😀b');
    expect(astralUnder('refused', 'a😀b')).toBe('refused');
    expect(astralUnder('replaced', 'a😀b𝄞')).toBe('a?b?');
    expect(astralUnder('refused', 'Élève 漢字')).toBe('Élève 漢字');
  });
});

describe('spaces at the edges of a String', () => {
  it('kept, trimmed as PHP trim() trims, or refused; a string without edge spaces is itself under every reading', () => {
    expect(textUnderTrimming('kept', '  a b  ')).toBe('  a b  ');
    expect(textUnderTrimming('trimmed', '  a b  ')).toBe('a b');
    expect(textUnderTrimming('trimmed', '\t a\n')).toBe('a');
    expect(textUnderTrimming('trimmed', '   ')).toBe('');
    expect(textUnderTrimming('refused', ' a')).toBe('refused');
    for (const reading of ['kept', 'trimmed', 'refused'] as const) expect(textUnderTrimming(reading, 'a  b')).toBe('a  b');
    // PHP's trim() leaves a no-break space: values meant to test trimming use spaces only
    expect(trimmedText('\u00a0a\u00a0')).toBe('\u00a0a\u00a0');
    expect(hasEdgeSpace('')).toBe(false);
    expect(hasEdgeSpace('a ')).toBe(true);
    expect(hasEdgeSpace('a b')).toBe(false);
  });
});

describe('duplicates in a list', () => {
  it('kept as sent, or merged keeping the first of each (by the key given)', () => {
    expect(listUnderDuplicates('kept', ['a', 'b', 'a'])).toEqual(['a', 'b', 'a']);
    expect(listUnderDuplicates('merged', ['a', 'b', 'a', 'b'])).toEqual(['a', 'b']);
    expect(listUnderDuplicates('merged', ['A', 'a'], (x) => x.toLowerCase())).toEqual(['A']);
    expect(listUnderDuplicates('refused', ['a', 'a'])).toEqual(['a', 'a']);
  });
});

describe('time', () => {
  const day = daysFromCivil(2024, 10, 1);
  it('a date-only bound: midnight, or the whole day', () => {
    const at = day * 86400 + 9 * 3600;
    expect(compareWithDateOnlyBound(at, day, 'midnight')).toBe(1);
    expect(compareWithDateOnlyBound(at, day, 'whole day')).toBe(0);
    expect(compareWithDateOnlyBound(day * 86400, day, 'midnight')).toBe(0);
    expect(compareWithDateOnlyBound(day * 86400 - 1, day, 'whole day')).toBe(-1);
    expect(compareWithDateOnlyBound((day + 1) * 86400, day, 'whole day')).toBe(1);
  });

  it('the UTC offset of a written DateTime, to a quarter hour, within 2 minutes of clock skew', () => {
    const now = Date.UTC(2024, 9, 1, 12, 0, 0);
    expect(utcOffsetMinutes('2024-10-01 12:00:41', now)).toBe(0);
    expect(utcOffsetMinutes('2024-10-01 14:01:00', now)).toBe(120);
    expect(utcOffsetMinutes('2024-10-01 06:30:00', now)).toBe(-330);
    expect(utcOffsetMinutes('2024-10-01 12:07:00', now)).toBeUndefined();
    expect(utcOffsetMinutes('not a date', now)).toBeUndefined();
    expect([describeOffset(0), describeOffset(120), describeOffset(-330)]).toEqual(['UTC', 'UTC+02:00', 'UTC-05:30']);
  });

  it('letter case of a GUID', () => {
    expect(letterCaseOf('3f2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe('lower');
    expect(letterCaseOf('3F2504E0-4F89-11D3-9A0C-0305E82C3301')).toBe('upper');
    expect(letterCaseOf('3F2504e0-4f89-11d3-9a0c-0305e82c3301')).toBe('mixed');
    expect(letterCaseOf('12345678-1234-1234-1234-123456789012')).toBeUndefined();
  });
});

/**
 * Every spring-forward gap of these zones between 2001 and 2035, found with
 * Intl (weekly steps, then to the minute), lies in the windows
 * clearOfDstGaps keeps generated values out of. Zones with gaps on other
 * weekdays or hours in those years (Tehran until 2022, Nuuk at 22:00,
 * Casablanca's Ramadan switches, São Paulo 2004) are the documented exceptions.
 */
const ZONES = [
  'America/New_York', 'America/Chicago', 'America/Los_Angeles', 'America/Toronto', 'America/Mexico_City', 'America/Santiago',
  'America/Asuncion', 'America/Havana', 'Europe/London', 'Europe/Paris', 'Europe/Berlin', 'Europe/Helsinki', 'Asia/Beirut',
  'Africa/Cairo', 'Australia/Sydney', 'Pacific/Auckland',
];

function offsetMinutes(f: Intl.DateTimeFormat, ms: number): number {
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, x.value]));
  return (Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - Math.floor(ms / 1000) * 1000) / 60000;
}

describe('DST gaps', () => {
  it('every gap of the common zones, 2001–2035, is inside the windows generated DateTimes avoid', () => {
    const outside: string[] = [];
    let gaps = 0;
    for (const zone of ZONES) {
      const f = new Intl.DateTimeFormat('en-US', { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
      const week = 7 * 86400000;
      let prev = offsetMinutes(f, Date.UTC(2001, 0, 1));
      for (let t = Date.UTC(2001, 0, 1) + week; t < Date.UTC(2036, 0, 1); t += week) {
        const now = offsetMinutes(f, t);
        if (now > prev) {
          let lo = t - week;
          let hi = t;
          while (hi - lo > 60000) {
            const mid = lo + Math.floor((hi - lo) / 120000) * 60000;
            if (offsetMinutes(f, mid) > prev) hi = mid;
            else lo = mid;
          }
          gaps++;
          const first = hi / 1000 + prev * 60;
          const last = hi / 1000 + now * 60 - 1;
          if (clearOfDstGaps(first) || clearOfDstGaps(last)) outside.push(`${zone} ${new Date(first * 1000).toISOString().slice(0, 16)}`);
        }
        prev = now;
      }
    }
    expect(gaps).toBeGreaterThan(400);
    expect(outside).toEqual([]);
  });
});

describe('storeReading (suites/support/readings.ts): the store\'s own reading is what most places show', () => {
  it('takes the majority, even against the probe that saw the one place departing', () => {
    expect(storeReading(['lower', 'lower', 'upper', 'lower'], 'upper')).toBe('lower');
    expect(storeReading([0, 0, 0, 0, 0, 60], 60)).toBe(0);
  });
  it('breaks a tie with the probe, and takes the probe when no place showed anything', () => {
    expect(storeReading(['rounded', 'refused'], 'refused')).toBe('refused');
    expect(storeReading(['rounded', 'refused'], 'rounded')).toBe('rounded');
    expect(storeReading([undefined, undefined], 'digits')).toBe('digits');
    expect(storeReading([undefined], null)).toBeUndefined();
    // a tie the probe is not part of: the first of the tied, never a reading no place showed
    expect(storeReading(['a', 'b'], 'c')).toBe('a');
  });
});
