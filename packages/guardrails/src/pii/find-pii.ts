/**
 * Finds personal data in text: e-mail addresses (a pattern), card numbers (digit runs that
 * `card-validator` accepts: a known card brand's length and prefix, and the Luhn check), IBANs
 * (checked by `ibantools`: country length and check digits) and phone numbers (`libphonenumber-js`,
 * Google's metadata: numbers in international form, or national ones with `defaultCountry`).
 */
import cardValidator from 'card-validator';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';

/** The kinds of personal data found. */
export type PiiKind = 'email' | 'phone' | 'card' | 'iban';

/** One piece of personal data in a text: its kind and where it is (`text.slice(start, end)`). */
export interface PiiFinding {
  kind: PiiKind;
  start: number;
  end: number;
  /** The text found. */
  text: string;
}

/** What to look for. */
export interface FindPiiOptions {
  /** Default all four. */
  kinds?: readonly PiiKind[];
  /** Phone numbers written without a `+` country code are read as this country's (ISO 3166 alpha-2, e.g. `DE`). Default none: only international numbers. */
  defaultCountry?: CountryCode;
}

const ALL: readonly PiiKind[] = ['email', 'card', 'iban', 'phone'];
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** 13 to 19 digits, maybe grouped by single spaces or dashes. */
const CARD = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d])/g;
/** A country code, two check digits, then 11 to 30 letters or digits, maybe in groups. */
const IBAN = /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]){11,30}\b/g;

/** The personal data in `text`, in order; a span is reported once (cards and IBANs before phone numbers). */
export function findPii(text: string, options: FindPiiOptions = {}): PiiFinding[] {
  const kinds = options.kinds ?? ALL;
  const found: PiiFinding[] = [];
  // One cheap pass first: most text (a window of an answer) holds no '@' and few digits, and then no
  // pattern or library runs at all. No closure is made per call.
  const digits = countDigits(text, ENOUGH_DIGITS);
  if (kinds.includes('email') && text.includes('@'))
    for (const m of text.matchAll(EMAIL)) add(found, text, 'email', m.index, m.index + m[0].length);
  if (kinds.includes('card') && digits >= 13) addValid(found, text, 'card', CARD, isCard);
  if (kinds.includes('iban') && digits >= 4) addValid(found, text, 'iban', IBAN, isIban);
  if (kinds.includes('phone') && digits >= 7) {
    const phones = options.defaultCountry
      ? findPhoneNumbersInText(text, { defaultCountry: options.defaultCountry })
      : findPhoneNumbersInText(text);
    for (const p of phones) add(found, text, 'phone', p.startsAt, p.endsAt);
  }
  return found.length > 1 ? found.sort((a, b) => a.start - b.start) : found;
}

/** Adds a finding unless a span found before overlaps it. */
function add(found: PiiFinding[], text: string, kind: PiiKind, start: number, end: number): void {
  for (const f of found) if (start < f.end && f.start < end) return;
  found.push({ kind, start, end, text: text.slice(start, end) });
}

/** Adds the matches of `pattern` whose longest valid start `ok` accepts. */
function addValid(
  found: PiiFinding[],
  text: string,
  kind: PiiKind,
  pattern: RegExp,
  ok: (candidate: string) => boolean,
): void {
  for (const m of text.matchAll(pattern)) {
    const length = longestValid(m[0], ok);
    if (length > 0) add(found, text, kind, m.index, m.index + length);
  }
}

const isCard = (candidate: string): boolean => cardValidator.number(candidate.replace(/[ -]/g, '')).isValid;
const isIban = (candidate: string): boolean => isValidIBAN(electronicFormatIBAN(candidate) ?? '');

/** The most digits any kind asks for (a card's 13): counting stops there. */
const ENOUGH_DIGITS = 13;
const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * How many ASCII digits `text` holds, counted up to `enough`: one `indexOf` scan per digit (native
 * and vectorized: several times faster than a regex or a loop over the characters).
 */
function countDigits(text: string, enough: number): number {
  let count = 0;
  for (const digit of DIGITS)
    for (let at = text.indexOf(digit); at >= 0; at = text.indexOf(digit, at + 1)) if (++count >= enough) return count;
  return count;
}

/**
 * The length of the longest start of `candidate`, ending before a separator or at its end, that `ok`
 * accepts (0: none): a card number followed by more digits, an IBAN followed by an upper-case word.
 */
function longestValid(candidate: string, ok: (c: string) => boolean): number {
  for (
    let end = candidate.length;
    end > 0;
    end = Math.max(candidate.lastIndexOf(' ', end - 1), candidate.lastIndexOf('-', end - 1))
  ) {
    if (ok(candidate.slice(0, end))) return end;
  }
  return 0;
}

/** `text` with each finding replaced by `replace(finding)`. */
export function redactPii(text: string, findings: readonly PiiFinding[], replace: (f: PiiFinding) => string): string {
  let out = '';
  let at = 0;
  for (const f of findings) {
    out += text.slice(at, f.start) + replace(f);
    at = f.end;
  }
  return out + text.slice(at);
}
