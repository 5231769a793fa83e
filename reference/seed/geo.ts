/**
 * Geography for a Québec store selling to Canada, the United States and a few
 * French-speaking countries: countries with currency codes, provinces and states
 * with cities, postal-code and phone formats. Names are given as the fr-CA store
 * shows them (États-Unis, Colombie-Britannique...), US state names in English.
 */
import type { Rng } from './rng.js';
import { pad } from './format.js';

export interface CountryInfo { code: string; name: string; currency: string }

/** The first five are the address countries and are always seeded. */
export const COUNTRIES: CountryInfo[] = [
  { code: 'CA', name: 'Canada', currency: 'CAD' },
  { code: 'US', name: 'États-Unis', currency: 'USD' },
  { code: 'FR', name: 'France', currency: 'EUR' },
  { code: 'BE', name: 'Belgique', currency: 'EUR' },
  { code: 'CH', name: 'Suisse', currency: 'CHF' },
  { code: 'GB', name: 'Royaume-Uni', currency: 'GBP' },
  { code: 'DE', name: 'Allemagne', currency: 'EUR' },
  { code: 'IT', name: 'Italie', currency: 'EUR' },
  { code: 'ES', name: 'Espagne', currency: 'EUR' },
  { code: 'PT', name: 'Portugal', currency: 'EUR' },
  { code: 'NL', name: 'Pays-Bas', currency: 'EUR' },
  { code: 'LU', name: 'Luxembourg', currency: 'EUR' },
  { code: 'MC', name: 'Monaco', currency: 'EUR' },
  { code: 'IE', name: 'Irlande', currency: 'EUR' },
  { code: 'SE', name: 'Suède', currency: 'SEK' },
  { code: 'NO', name: 'Norvège', currency: 'NOK' },
  { code: 'DK', name: 'Danemark', currency: 'DKK' },
  { code: 'MX', name: 'Mexique', currency: 'MXN' },
  { code: 'BR', name: 'Brésil', currency: 'BRL' },
  { code: 'HT', name: 'Haïti', currency: 'HTG' },
  { code: 'SN', name: 'Sénégal', currency: 'XOF' },
  { code: 'CI', name: "Côte d'Ivoire", currency: 'XOF' },
  { code: 'MA', name: 'Maroc', currency: 'MAD' },
  { code: 'TN', name: 'Tunisie', currency: 'TND' },
  { code: 'DZ', name: 'Algérie', currency: 'DZD' },
  { code: 'JP', name: 'Japon', currency: 'JPY' },
  { code: 'KR', name: 'Corée du Sud', currency: 'KRW' },
  { code: 'CN', name: 'Chine', currency: 'CNY' },
  { code: 'AU', name: 'Australie', currency: 'AUD' },
  { code: 'NZ', name: 'Nouvelle-Zélande', currency: 'NZD' },
  { code: 'PM', name: 'Saint-Pierre-et-Miquelon', currency: 'EUR' },
  { code: 'GP', name: 'Guadeloupe', currency: 'EUR' },
];

export interface City { name: string; postal: string; area: string[] }
export interface RegionInfo { country: string; code: string; name: string; cities: City[] }

/**
 * Canadian `postal` is the forward sortation area's first letter(s); US `postal`
 * the ZIP's first 3 digits; `area` the phone area codes.
 */
export const REGIONS: RegionInfo[] = [
  { country: 'CA', code: 'QC', name: 'Québec', cities: [
    { name: 'Montréal', postal: 'H2', area: ['514', '438'] },
    { name: 'Québec', postal: 'G1', area: ['418', '581'] },
    { name: 'Trois-Rivières', postal: 'G9', area: ['819', '873'] },
    { name: 'Sherbrooke', postal: 'J1', area: ['819', '873'] },
    { name: 'Gatineau', postal: 'J8', area: ['819'] },
    { name: 'Lévis', postal: 'G6', area: ['418', '581'] },
    { name: 'Saguenay', postal: 'G7', area: ['418'] },
    { name: 'Rimouski', postal: 'G5', area: ['418'] },
    { name: 'Laval', postal: 'H7', area: ['450', '579'] },
    { name: 'Longueuil', postal: 'J4', area: ['450', '579'] },
    { name: 'Saint-Jérôme', postal: 'J7', area: ['450'] },
    { name: 'Baie-Saint-Paul', postal: 'G3', area: ['418'] },
  ] },
  { country: 'CA', code: 'ON', name: 'Ontario', cities: [
    { name: 'Toronto', postal: 'M5', area: ['416', '647'] },
    { name: 'Ottawa', postal: 'K1', area: ['613', '343'] },
    { name: 'Kingston', postal: 'K7', area: ['613'] },
    { name: 'Sudbury', postal: 'P3', area: ['705'] },
  ] },
  { country: 'CA', code: 'NB', name: 'Nouveau-Brunswick', cities: [
    { name: 'Moncton', postal: 'E1', area: ['506'] },
    { name: 'Edmundston', postal: 'E3', area: ['506'] },
  ] },
  { country: 'CA', code: 'NS', name: 'Nouvelle-Écosse', cities: [{ name: 'Halifax', postal: 'B3', area: ['902', '782'] }] },
  { country: 'CA', code: 'PE', name: 'Île-du-Prince-Édouard', cities: [{ name: 'Charlottetown', postal: 'C1', area: ['902'] }] },
  { country: 'CA', code: 'NL', name: 'Terre-Neuve-et-Labrador', cities: [{ name: "St. John's", postal: 'A1', area: ['709'] }] },
  { country: 'CA', code: 'MB', name: 'Manitoba', cities: [{ name: 'Winnipeg', postal: 'R3', area: ['204', '431'] }] },
  { country: 'CA', code: 'SK', name: 'Saskatchewan', cities: [{ name: 'Regina', postal: 'S4', area: ['306'] }] },
  { country: 'CA', code: 'AB', name: 'Alberta', cities: [
    { name: 'Calgary', postal: 'T2', area: ['403', '587'] },
    { name: 'Edmonton', postal: 'T5', area: ['780'] },
  ] },
  { country: 'CA', code: 'BC', name: 'Colombie-Britannique', cities: [
    { name: 'Vancouver', postal: 'V6', area: ['604', '778'] },
    { name: 'Victoria', postal: 'V8', area: ['250'] },
  ] },
  { country: 'CA', code: 'YT', name: 'Yukon', cities: [{ name: 'Whitehorse', postal: 'Y1', area: ['867'] }] },
  { country: 'US', code: 'NY', name: 'New York', cities: [
    { name: 'New York', postal: '100', area: ['212', '646'] },
    { name: 'Albany', postal: '122', area: ['518'] },
    { name: 'Plattsburgh', postal: '129', area: ['518'] },
  ] },
  { country: 'US', code: 'VT', name: 'Vermont', cities: [
    { name: 'Burlington', postal: '054', area: ['802'] },
    { name: 'Montpelier', postal: '056', area: ['802'] },
  ] },
  { country: 'US', code: 'ME', name: 'Maine', cities: [{ name: 'Portland', postal: '041', area: ['207'] }] },
  { country: 'US', code: 'MA', name: 'Massachusetts', cities: [{ name: 'Boston', postal: '021', area: ['617', '857'] }] },
  { country: 'US', code: 'NH', name: 'New Hampshire', cities: [{ name: 'Manchester', postal: '031', area: ['603'] }] },
  { country: 'US', code: 'FL', name: 'Florida', cities: [
    { name: 'Miami', postal: '331', area: ['305', '786'] },
    { name: 'Fort Lauderdale', postal: '333', area: ['954'] },
  ] },
  { country: 'US', code: 'LA', name: 'Louisiana', cities: [
    { name: 'New Orleans', postal: '701', area: ['504'] },
    { name: 'Lafayette', postal: '705', area: ['337'] },
  ] },
  { country: 'US', code: 'IL', name: 'Illinois', cities: [{ name: 'Chicago', postal: '606', area: ['312', '773'] }] },
  { country: 'US', code: 'CA', name: 'California', cities: [
    { name: 'San Francisco', postal: '941', area: ['415'] },
    { name: 'Los Angeles', postal: '900', area: ['213', '323'] },
  ] },
  { country: 'US', code: 'WA', name: 'Washington', cities: [{ name: 'Seattle', postal: '981', area: ['206'] }] },
  { country: 'US', code: 'TX', name: 'Texas', cities: [{ name: 'Austin', postal: '787', area: ['512'] }] },
];

/** Cities of the countries without states in the address data: [city, postal prefix, phone prefix]. */
export const STATELESS_CITIES: Record<string, Array<[string, string, string]>> = {
  FR: [['Paris', '750', '+33 1'], ['Lyon', '690', '+33 4'], ['Marseille', '130', '+33 4'], ['Bordeaux', '330', '+33 5'], ['Nantes', '440', '+33 2'], ['La Rochelle', '170', '+33 5']],
  BE: [['Bruxelles', '10', '+32 2'], ['Liège', '40', '+32 4'], ['Namur', '50', '+32 81']],
  CH: [['Genève', '12', '+41 22'], ['Lausanne', '10', '+41 21'], ['Neuchâtel', '20', '+41 32']],
};

/** Address country weights: mostly Québec and the rest of Canada, then the US. */
export const ADDRESS_COUNTRY_WEIGHTS: ReadonlyArray<readonly [string, number]> = [
  ['CA', 66], ['US', 22], ['FR', 7], ['BE', 3], ['CH', 2],
];

const POSTAL_LETTERS = 'ABCEGHJKLMNPRSTVXY';

export function postalCode(rng: Rng, country: string, prefix: string): string {
  if (country === 'CA') {
    const l = () => POSTAL_LETTERS[rng.int(0, POSTAL_LETTERS.length - 1)];
    return `${prefix}${l()} ${rng.int(0, 9)}${l()}${rng.int(0, 9)}`;
  }
  if (country === 'US') return prefix + rng.digits(5 - prefix.length);
  if (country === 'FR') return prefix + rng.digits(5 - prefix.length);
  return prefix + rng.digits(4 - prefix.length);
}

/** North American numbers in the fictional 555-01xx range, formatted a few ways. */
export function phone(rng: Rng, country: string, area: string): string {
  if (country === 'CA' || country === 'US') {
    const line = `555-01${pad(rng.int(0, 99), 2)}`;
    switch (rng.int(0, 3)) {
      case 0: return `(${area}) ${line}`;
      case 1: return `+1 ${area}-${line}`;
      default: return `${area}-${line}`;
    }
  }
  // area is the international prefix here
  return `${area} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)}`;
}

export const STREETS_CA_FR = [
  'rue Saint-Denis', 'rue Sainte-Catherine Ouest', 'boulevard René-Lévesque Est', 'avenue du Mont-Royal Est',
  'rue des Forges', 'chemin du Lac-Bowker', 'rue Saint-Jean', 'Grande Allée Est', 'rue Notre-Dame Ouest',
  'boulevard des Récollets', 'rue King Ouest', 'rang Saint-Édouard', 'avenue Cartier', 'rue de la Commune',
  'boulevard Laurier', 'côte de la Fabrique', 'rue Principale', 'chemin Sainte-Foy',
];
export const STREETS_EN = [
  'Main Street', 'Church Street', 'Elm Street', 'Maple Avenue', 'Lakeshore Road', 'Queen Street West',
  'Water Street', 'Park Avenue', 'College Street', 'Pine Street', 'Bank Street', 'Harbour Road',
];
export const STREETS_FR = [
  'rue de Rivoli', 'avenue Jean-Jaurès', 'rue de la République', 'boulevard Voltaire', 'place Bellecour',
  'rue du Faubourg-Saint-Honoré', 'chaussée de Charleroi', 'rue du Rhône',
];
