import { describe, expect, it } from 'vitest';

import { stripPrices } from './cards.ts';
import { isRoomToken, listingTypeIn, propertyTypeIn, roomsIn } from './real-estate.ts';

describe('roomsIn', () => {
  it.each([
    ['$1590 / 1br - 642ft2 - 1BR / 1Ba', { bedrooms: 1, bathrooms: 1, floor_area: 642, floor_area_unit: 'sqft' }],
    ['Nice 3 Bedroom/ 2 Bathroom House. 1,134 square feet of living area', { bedrooms: 3, bathrooms: 2, floor_area: 1134, floor_area_unit: 'sqft' }],
    ['4 beds, 2.5 baths, 2,140 sqft', { bedrooms: 4, bathrooms: 2.5, floor_area: 2140, floor_area_unit: 'sqft' }],
    ['2-Zimmer, 58,5 m²', { floor_area: 58.5, floor_area_unit: 'sqm' }],
    ['Great location', {}],
  ])('reads %j', (raw, expected) => {
    expect(roomsIn(raw)).toEqual(expected);
  });
});

describe('propertyTypeIn', () => {
  it.each([
    ['Maisonette 2 Bedroom Flat/Apartment For Sale', 'maisonette'],
    ['Nice 3 Bedroom/ 2 Bathroom House with Garage', 'house'],
    ['Fantastic Townhouse With 1-Car Garage', 'townhouse'],
    ['COME ENJOY YOUR NEW HOME!', undefined],
  ])('reads %j as %j', (raw, expected) => {
    expect(propertyTypeIn(raw)).toBe(expected);
  });
});

describe('listingTypeIn', () => {
  it.each([
    ['Conversion 2 Bedroom Flat/Apartment For Sale', 'sale'],
    ['SF bay area > housing > apts/housing for rent', 'rent'],
    ['£1,200 pcm', 'rent'],
    ['Not a short sale or foreclosure', undefined],
  ])('reads %j as %j', (raw, expected) => {
    expect(listingTypeIn(raw)).toBe(expected);
  });
});

describe('stripPrices', () => {
  it.each([
    ['925 Sterling Silver Dragonfly Charm Bracelet - $25 -', undefined, '925 Sterling Silver Dragonfly Charm Bracelet'],
    ['Authentic .5c Ice Master Watch !! - 350$  - $350 -', undefined, 'Authentic .5c Ice Master Watch !!'],
    ['$118000 / 4br - Entire Duplex For Sale -', isRoomToken, 'Entire Duplex For Sale'],
    ['$199900 2 BR, 2 Bath House -', isRoomToken, '2 BR, 2 Bath House'],
  ])('strips %j', (raw, drop, expected) => {
    expect(stripPrices(raw, drop)).toBe(expected);
  });
});
