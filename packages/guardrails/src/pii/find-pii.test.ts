import { describe, expect, it } from 'vitest';
import { findPii, redactPii } from '../index.js';

const kinds = (text: string, country?: 'DE') =>
  findPii(text, country ? { defaultCountry: country } : {}).map((f) => [f.kind, f.text]);

describe('findPii', () => {
  it('finds e-mail addresses', () => {
    expect(kinds('write to aiko.tanaka+desk@example.co.jp today')).toEqual([
      ['email', 'aiko.tanaka+desk@example.co.jp'],
    ]);
  });

  it('finds card numbers that pass the Luhn check and a brand’s length, grouped or not', () => {
    expect(kinds('card 4111 1111 1111 1111, exp 12/29')).toEqual([['card', '4111 1111 1111 1111']]);
    expect(kinds('mc 5555-5555-5555-4444')).toEqual([['card', '5555-5555-5555-4444']]);
    expect(kinds('amex 378282246310005')).toEqual([['card', '378282246310005']]);
    expect(kinds('card 4111 1111 1111 1111 123 is mine')).toEqual([['card', '4111 1111 1111 1111']]);
    expect(kinds('tracking 4111 1111 1111 1112')).toEqual([]); // Luhn fails
    expect(kinds('order 1234567890123 shipped')).toEqual([]);
  });

  it('finds IBANs whose check digits hold', () => {
    expect(kinds('pay to DE89 3704 0044 0532 0130 00 IN FULL')).toEqual([['iban', 'DE89 3704 0044 0532 0130 00']]);
    expect(kinds('GB29NWBK60161331926819')).toEqual([['iban', 'GB29NWBK60161331926819']]);
    expect(kinds('DE89 3704 0044 0532 0130 01')).toEqual([]);
  });

  it('finds phone numbers in international form, and national ones with a default country', () => {
    expect(kinds('call +44 20 7946 0958 now')).toEqual([['phone', '+44 20 7946 0958']]);
    expect(kinds('ring 030 901820')).toEqual([]);
    expect(kinds('ring 030 901820', 'DE')).toEqual([['phone', '030 901820']]);
    expect(kinds('order 42 costs 80 EUR', 'DE')).toEqual([]);
    // A card's digits are a card, not phone numbers.
    expect(kinds('4111 1111 1111 1111', 'DE')).toEqual([['card', '4111 1111 1111 1111']]);
  });

  it('redacts what it found', () => {
    const text = 'mail a@b.io or call +44 20 7946 0958';
    expect(redactPii(text, findPii(text), (f) => `[${f.kind}]`)).toBe('mail [email] or call [phone]');
  });
});
