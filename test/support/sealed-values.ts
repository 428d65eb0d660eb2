// What the sealed installation and set-up stores keep, in a Map the test can read, and a fresh key.
import { randomBytes } from 'node:crypto';
import { type SealedValues, Sealer } from '../../src/stores/sealing.js';

export function keptSealedValues(): { kept: Map<string, string>; values: SealedValues; sealer: Sealer } {
  const kept = new Map<string, string>();
  const values: SealedValues = {
    get: async (key) => kept.get(key),
    set: async (key, value) => {
      kept.set(key, value);
    },
    delete: async (key) => {
      kept.delete(key);
    },
  };
  const sealer = Sealer.fromBase64(randomBytes(32).toString('base64'));
  if (!sealer) throw new Error('no key');
  return { kept, values, sealer };
}
