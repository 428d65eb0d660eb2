// A Bloom filter of the keys a SQLite file may hold that this process wrote: most of an answer's looks
// are for keys never written (a new delivery, a new thread), and "certainly not there" costs a few
// hashes rather than a statement. It never forgets a key; when a layer is full, a layer twice its size
// takes the next keys, so it keeps denying however many are written (docs/decisions/012).

/** Bits per key at capacity, and hashes per key: about 1% of absent keys admitted per layer. */
const BITS_PER_KEY = 10;
const HASHES = 7;

interface Layer {
  readonly bits: Uint32Array;
  /** Bits in the layer minus one (a power of two). */
  readonly mask: number;
  readonly capacity: number;
  added: number;
}

function layer(capacity: number): Layer {
  const bits = 2 ** Math.ceil(Math.log2(Math.max(1_024, capacity * BITS_PER_KEY)));
  return { bits: new Uint32Array(bits / 32), mask: bits - 1, capacity, added: 0 };
}

export class KeyFilter {
  readonly #layers: Layer[];
  #last: Layer;

  constructor(capacity: number) {
    this.#last = layer(Math.max(1, Math.ceil(capacity)));
    this.#layers = [this.#last];
  }

  add(key: string): void {
    if (this.#last.added >= this.#last.capacity) {
      this.#last = layer(this.#last.capacity * 2);
      this.#layers.push(this.#last);
    }
    const [first, step] = hashes(key);
    const { bits, mask } = this.#last;
    for (let i = 0; i < HASHES; i++) {
      const bit = (first + i * step) & mask;
      bits[bit >>> 5] = (bits[bit >>> 5] ?? 0) | (1 << (bit & 31));
    }
    this.#last.added += 1;
  }

  /** False only for a key never added. */
  mayHold(key: string): boolean {
    const [first, step] = hashes(key);
    for (const { bits, mask } of this.#layers) {
      let all = true;
      for (let i = 0; i < HASHES && all; i++) {
        const bit = (first + i * step) & mask;
        all = ((bits[bit >>> 5] ?? 0) & (1 << (bit & 31))) !== 0;
      }
      if (all) return true;
    }
    return false;
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
