import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Sealer } from '../../../src/stores/sealing.js';

const TOKEN = 'xoxb-1234567890-abcdefghijklmnop';

function sealer(): Sealer {
  const made = Sealer.fromBase64(randomBytes(32).toString('base64'));
  if (!made) throw new Error('a 32-byte key was refused');
  return made;
}

describe('Sealer', () => {
  it('opens what it sealed, where it was sealed, and the stored text holds no token', () => {
    const keys = sealer();
    const sealed = keys.seal(TOKEN, 'installations:T1');
    expect(sealed).not.toContain(TOKEN);
    expect(sealed).not.toContain(Buffer.from(TOKEN).toString('base64'));
    expect(keys.open(sealed, 'installations:T1')).toBe(TOKEN);
  });

  it('seals the same value differently each time', () => {
    const keys = sealer();
    expect(keys.seal(TOKEN, 'a')).not.toBe(keys.seal(TOKEN, 'a'));
  });

  it('does not open a value moved to another key, or sealed under another secret', () => {
    const keys = sealer();
    const sealed = keys.seal(TOKEN, 'installations:T1');
    expect(keys.open(sealed, 'installations:T2')).toBeUndefined();
    expect(sealer().open(sealed, 'installations:T1')).toBeUndefined();
  });

  it('does not open a value changed in any part', () => {
    const keys = sealer();
    const sealed = keys.seal(TOKEN, 'b');
    const parts = sealed.split('.');
    for (const [index, part] of parts.entries()) {
      // The first character: a last one may carry only base64's padding bits.
      const flipped = `${part.startsWith('A') ? 'B' : 'A'}${part.slice(1)}`;
      const changed = parts.map((each, at) => (at === index ? flipped : each)).join('.');
      expect(keys.open(changed, 'b'), `part ${index}`).toBeUndefined();
    }
    expect(keys.open(sealed.slice(0, -4), 'b')).toBeUndefined();
    expect(keys.open(`${sealed}.x`, 'b')).toBeUndefined();
    expect(keys.open('', 'b')).toBeUndefined();
  });

  it.each([
    ['16 bytes', randomBytes(16).toString('base64')],
    ['33 bytes', randomBytes(33).toString('base64')],
    ['text that is not base64', 'not a key at all!'],
    ['nothing', ''],
  ])('refuses a key of %s', (_name, text) => {
    expect(Sealer.fromBase64(text)).toBeUndefined();
  });
});
