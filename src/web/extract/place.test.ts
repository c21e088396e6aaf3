import { describe, expect, it } from 'vitest';

import { addressFrom, openingHoursOf, ukAddressLine, usAddressIn } from './place.ts';

describe('usAddressIn', () => {
  it.each([
    {
      raw: 'Twin Creeks Apartments 1111 James Donlon Blvd, Antioch, CA, 94509 Use this link',
      expected: { address: '1111 James Donlon Blvd, Antioch, CA, 94509', street: '1111 James Donlon Blvd', locality: 'Antioch', region: 'CA', postal_code: '94509' },
    },
    {
      raw: 'to the property- 9163 N.W. 26th Street, Sunrise, FL 33322',
      expected: { address: '9163 N.W. 26th Street, Sunrise, FL 33322', street: '9163 N.W. 26th Street', locality: 'Sunrise', region: 'FL', postal_code: '33322' },
    },
  ])('reads the address in $raw', ({ raw, expected }) => {
    expect(usAddressIn(raw)).toEqual(expected);
  });

  it('ignores text without a street address', () => {
    expect(usAddressIn('Asking $189,999. Call at 954-478-4784.')).toBeUndefined();
  });
});

describe('ukAddressLine', () => {
  it.each([
    ['Ashley Road, London N19', { address: 'Ashley Road, London N19', street: 'Ashley Road', locality: 'London', postal_code: 'N19' }],
    ['1 High St, Leeds LS1 4AB', { address: '1 High St, Leeds LS1 4AB', street: '1 High St', locality: 'Leeds', postal_code: 'LS1 4AB' }],
    ['Conversion 2 Bedroom Flat/Apartment For Sale', undefined],
  ])('reads %j', (raw, expected) => {
    expect(ukAddressLine(raw)).toEqual(expected);
  });
});

describe('addressFrom', () => {
  it('joins a PostalAddress into a line and keeps its parts', () => {
    const address = {
      type: ['PostalAddress'],
      properties: { streetAddress: '1901 Lemur Ave', addressLocality: 'Sunnyvale', addressRegion: 'CA', postalCode: '94086', addressCountry: { type: ['Country'], properties: { name: 'US' } } },
    };
    expect(addressFrom(address)).toEqual({
      address: '1901 Lemur Ave, Sunnyvale, CA 94086, US',
      street: '1901 Lemur Ave',
      locality: 'Sunnyvale',
      region: 'CA',
      postal_code: '94086',
      country: 'US',
    });
  });

  it('keeps an unparsed address string as the one-line address', () => {
    expect(addressFrom('Piazza San Marco 1, 30124 Venezia')).toEqual({ address: 'Piazza San Marco 1, 30124 Venezia' });
  });
});

describe('openingHoursOf', () => {
  it('keeps openingHours strings and converts specifications', () => {
    const item = {
      type: ['Store'],
      properties: {
        openingHours: 'Sa 10:00-14:00',
        openingHoursSpecification: [
          { type: ['OpeningHoursSpecification'], properties: { dayOfWeek: ['Monday', 'https://schema.org/Tuesday'], opens: '09:00:00', closes: '17:00:00' } },
          { type: ['OpeningHoursSpecification'], properties: { dayOfWeek: 'Sunday' } },
        ],
      },
    };
    expect(openingHoursOf(item)).toEqual(['Sa 10:00-14:00', 'Mo,Tu 09:00-17:00']);
  });
});
