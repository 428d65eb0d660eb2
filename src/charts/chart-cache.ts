// Charts drawn once for the same inputs: a key over everything drawn (workspace, labels, language, data).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { OneAtATime } from '../util/one-at-a-time.js';
import type { ChartImage } from './draw.js';

/** A few hundred charts of tens of kilobytes each. */
const CACHE_BYTES = 32 * 1024 * 1024;

export class ChartCache {
  readonly #images = new LRUCache<string, ChartImage>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (image) => Math.max(1, image.png.length),
  });
  /** Drawings under way: an ask for the same inputs meanwhile waits for the same worker's image. */
  readonly #drawing = new OneAtATime<ChartImage>();

  /** The image drawn before for inputs equal to `inputs` (as JSON), else `draw()`'s, kept once drawn. */
  image(inputs: unknown, draw: () => Promise<ChartImage>): Promise<ChartImage> {
    const key = createHash('sha256').update(JSON.stringify(inputs)).digest('base64url');
    const cached = this.#images.get(key);
    if (cached) return Promise.resolve(cached);
    return this.#drawing.run(key, () =>
      draw().then((image) => {
        this.#images.set(key, image);
        return image;
      }),
    );
  }
}
