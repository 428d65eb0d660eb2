// A Bloom filter of the keys a SQLite file may hold: most of an answer's looks are for keys that were
// never written (a new delivery, a new thread), and "certainly not there" costs a few hashes here
// rather than a statement. It never forgets a key, so a key it denies is not in the file; a key it
// admits may not be, and is looked up.

/** Bits per key at capacity, and hashes per key: about 1% of absent keys admitted. */
const BITS_PER_KEY = 10;
const HASHES = 7;

export class KeyFilter {
  readonly #bits: Uint32Array;
  /** Bits in the filter minus one (a power of two). */
  readonly #mask: number;
  #added = 0;
  /** Keys it was sized for; past them more absent keys are admitted (still never a present one denied). */
  readonly capacity: number;

  constructor(capacity: number) {
    this.capacity = Math.max(1, Math.ceil(capacity));
    const bits = 2 ** Math.ceil(Math.log2(Math.max(1_024, this.capacity * BITS_PER_KEY)));
    this.#bits = new Uint32Array(bits / 32);
    this.#mask = bits - 1;
  }

  /** True once it holds more keys than it was sized for: time to build a larger one. */
  get full(): boolean {
    return this.#added > this.capacity;
  }

  add(key: string): void {
    const [first, step] = hashes(key);
    for (let i = 0; i < HASHES; i++) {
      const bit = (first + i * step) & this.#mask;
      this.#bits[bit >>> 5] = (this.#bits[bit >>> 5] ?? 0) | (1 << (bit & 31));
    }
    this.#added += 1;
  }

  /** False only for a key never added. */
  mayHold(key: string): boolean {
    const [first, step] = hashes(key);
    for (let i = 0; i < HASHES; i++) {
      const bit = (first + i * step) & this.#mask;
      if (((this.#bits[bit >>> 5] ?? 0) & (1 << (bit & 31))) === 0) return false;
    }
    return true;
  }
}

/** The key's 32-bit FNV-1a hash, and a step mixed from it (odd, so the steps reach every bit). */
function hashes(key: string): [number, number] {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  // MurmurHash3's finaliser: the step's bits depend on all of the hash's.
  let step = hash ^ 0x9e3779b9;
  step = Math.imul(step ^ (step >>> 16), 0x85ebca6b);
  step = Math.imul(step ^ (step >>> 13), 0xc2b2ae35);
  step ^= step >>> 16;
  return [hash >>> 0, (step | 1) >>> 0];
}
