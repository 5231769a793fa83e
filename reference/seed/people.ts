/**
 * People and addresses: a name, an e-mail, phones and a postal address whose
 * country, province/state, city, postal code and area code agree with each other,
 * and whose country and state ids are those of the seeded countries and states.
 */
import type { Rng } from './rng.js';
import { ZERO_GUID } from '../../src/schema/model.js';
import type { Person, StateInfo, World } from './context.js';
import { emailPart } from './format.js';
import {
  ADDRESS_COUNTRY_WEIGHTS, STATELESS_CITIES, STREETS_CA_FR, STREETS_EN, STREETS_FR, phone, postalCode,
} from './geo.js';
import { COMPANIES, CUSTOMER_EMAIL_DOMAINS, FIRST_NAMES, LAST_NAMES, type Lang } from './vocab.js';

export type { Person } from './context.js';

/** The field suffixes a Person fills, for `<prefix><suffix>` record fields. */
export const PERSON_FIELDS = [
  'firstname', 'lastname', 'email', 'phone', 'cellphone', 'company', 'addressline1', 'addressline2',
  'city', 'postalcode', 'countryid', 'countrycode', 'countryname', 'stateid', 'statecode', 'statename',
] as const;

export function personName(rng: Rng): { firstname: string; lastname: string; lang: Lang } {
  const [firstname, lang] = rng.pick(FIRST_NAMES);
  return { firstname, lastname: rng.pick(LAST_NAMES), lang };
}

export function emailFor(first: string, last: string, domain: string, n?: number): string {
  return `${emailPart(first)}.${emailPart(last)}${n ? n : ''}@${domain}`;
}

function pickCountryCode(rng: Rng, world: World): string {
  const present = ADDRESS_COUNTRY_WEIGHTS.filter(([c]) => world.countryByCode.has(c));
  return present.length ? rng.weighted(present) : 'CA';
}

function pickState(rng: Rng, world: World, country: string): StateInfo | undefined {
  const states = country === 'CA' ? world.statesCA : country === 'US' ? world.statesUS : [];
  if (states.length === 0) return undefined;
  if (country === 'CA' && rng.chance(0.7)) return world.stateByKey.get('CA-QC');
  return rng.pick(states);
}

export function makeAddress(rng: Rng, world: World, lang: Lang): Omit<Person, 'lang' | 'firstname' | 'lastname' | 'email' | 'company'> {
  const code = pickCountryCode(rng, world);
  const country = world.countryByCode.get(code);
  const state = pickState(rng, world, code);
  const num = rng.int(1, 9999);
  let city: string, postal: string, ph: string, cell: string, line1: string, line2 = '';
  if (state) {
    const c = rng.pick(state.cities);
    city = c.name;
    postal = postalCode(rng, code, c.postal);
    ph = phone(rng, code, rng.pick(c.area));
    cell = rng.chance(0.55) ? phone(rng, code, rng.pick(c.area)) : '';
    const frenchStreet = state.code === 'QC' || (state.code === 'NB' && lang === 'fr');
    line1 = frenchStreet ? `${num}, ${rng.pick(STREETS_CA_FR)}` : `${num} ${rng.pick(STREETS_EN)}`;
    if (rng.chance(0.35)) {
      line2 = frenchStreet
        ? rng.pick([`app. ${rng.int(1, 40)}`, `bureau ${rng.int(1, 9)}0${rng.int(0, 9)}`, `local ${rng.int(100, 450)}`])
        : rng.pick([`Apt ${rng.int(1, 30)}${rng.pick(['', 'A', 'B'])}`, `Suite ${rng.int(1, 9)}00`, `Unit ${rng.int(1, 60)}`]);
    }
  } else {
    const [c, pp, intl] = rng.pick(STATELESS_CITIES[code] ?? STATELESS_CITIES.FR);
    city = c;
    postal = postalCode(rng, code, pp);
    ph = phone(rng, code, intl);
    cell = rng.chance(0.5) ? phone(rng, code, intl.replace(/ \d+$/, ' 6')) : '';
    line1 = `${num % 200 || 1} ${rng.pick(STREETS_FR)}`;
    if (rng.chance(0.25)) line2 = rng.pick([`Bâtiment ${rng.pick(['A', 'B', 'C'])}`, `${rng.int(1, 6)}e étage`]);
  }
  return {
    phone: ph,
    cellphone: cell,
    addressline1: line1,
    addressline2: line2,
    city,
    postalcode: postal,
    countryid: country?.id ?? ZERO_GUID,
    countrycode: country?.code ?? code,
    countryname: country?.name ?? '',
    stateid: state?.id ?? ZERO_GUID,
    statecode: state?.code ?? '',
    statename: state?.name ?? '',
  };
}

/**
 * A phone as people write one now and then, with letters in it: an office
 * line's extension ("poste 204", "ext. 204") or a note on when to call
 * ("(soir)"). §2 gives a phone no form (a String): a store keeps the text it
 * was given, and a filter on it compares letters like any other String key's.
 */
export function annotatedPhone(ph: string, lang: Lang, kind: 'extension' | 'note', k: number): string {
  if (!ph) return ph;
  if (kind === 'extension') return `${ph} ${lang === 'fr' ? 'poste' : 'ext.'} ${200 + k}`;
  return `${ph} (${lang === 'fr' ? 'soir' : 'evenings'})`;
}

/** A whole person; the caller makes the e-mail unique if it needs to. */
export function makePerson(rng: Rng, world: World): Person {
  const n = personName(rng);
  const addr = makeAddress(rng, world, n.lang);
  return {
    ...n,
    email: emailFor(n.firstname, n.lastname, rng.pick(CUSTOMER_EMAIL_DOMAINS)),
    company: rng.chance(0.22) ? rng.pick(COMPANIES) : '',
    ...addr,
  };
}
