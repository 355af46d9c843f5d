// Bank account numbers in text: an IBAN names one person's or company's account, and with a name beside
// it is personal financial data. Each candidate is checked the way banks check them (the country's length
// and the ISO 7064 mod-97 check digits), so a product code or a hash that merely looks like one does not count.

/** IBAN lengths of the countries whose accounts are most often met. */
const IBAN_LENGTHS: Readonly<Record<string, number>> = {
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LT: 20,
  LU: 20,
  LV: 21,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  TR: 26,
  AE: 23,
  SA: 24,
  IL: 23,
  BR: 29,
};

// Written whole (`DE89370400440532013000`) or in groups of four (`DE89 3704 0044 0532 0130 00`).
const IBAN_CANDIDATE = /\b[A-Z]{2}\d{2}(?:[A-Z0-9]{11,30}|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,3})?)\b/g;

/** Whether the compact IBAN's check digits hold: the number, rearranged and read as digits, is 1 mod 97. */
function checksumHolds(iban: string): boolean {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (const char of rearranged) {
    const value = char >= 'A' ? char.charCodeAt(0) - 55 : char.charCodeAt(0) - 48;
    remainder = (value > 9 ? remainder * 100 + value : remainder * 10 + value) % 97;
  }
  return remainder === 1;
}

/** The first valid IBAN written in the text, compact, or undefined. */
export function ibanIn(text: string): string | undefined {
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const compact = match[0].replace(/ /g, '');
    if (IBAN_LENGTHS[compact.slice(0, 2)] === compact.length && checksumHolds(compact)) return compact;
  }
  return undefined;
}
