// Seeded values for the tests that hold a hand reading to its zod schema: each field mostly one of its
// plain values, sometimes anything at all.
import { createPrng } from '../../src/simulator/prng.js';

/** A field left out of the object built. */
export const MISSING = Symbol('missing');

export function valueGenerator(seed: number, anything: readonly unknown[], plainShare: number) {
  const random = createPrng(seed);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(random() * values.length)] as T;
  const field = (plain: readonly unknown[]) => (random() < plainShare ? pick(plain) : pick(anything));
  /** The fields as an object, those MISSING left out. */
  const object = (fields: Record<string, unknown>): Record<string, unknown> =>
    Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== MISSING));
  return { random, pick, field, object };
}
