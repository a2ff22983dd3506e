import { describe, expect, it } from 'vitest';
import { deFr } from './publications.pages.js';

describe('French page text', () => {
  it('elides "de" before a name that starts with a vowel, and only then', () => {
    expect(deFr('Élodie Martin')).toBe('d’Élodie Martin');
    expect(deFr('Antoine')).toBe('d’Antoine');
    expect(deFr('Camille Laurent')).toBe('de Camille Laurent');
    // An h may be aspirated (de Hugo): left as it is.
    expect(deFr('Hugo')).toBe('de Hugo');
  });
});
