// Charts drawn once for the same inputs: a key over everything drawn (workspace, labels, language, data).
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { ChartImage } from './draw.js';

/** A few hundred charts of tens of kilobytes each. */
const CACHE_BYTES = 32 * 1024 * 1024;

export class ChartCache {
  /** fetch draws once per key at a time: an ask for the same inputs meanwhile waits for that image. */
  readonly #images = new LRUCache<string, ChartImage, () => Promise<ChartImage>>({
    maxSize: CACHE_BYTES,
    sizeCalculation: (image) => Math.max(1, image.png.length),
    fetchMethod: (_key, _stale, { context: draw }) => draw(),
  });

  /** The image drawn before for inputs equal to `inputs` (as JSON), else `draw()`'s, kept once drawn. */
  async image(inputs: unknown, draw: () => Promise<ChartImage>): Promise<ChartImage> {
    const key = createHash('sha256').update(JSON.stringify(inputs)).digest('base64url');
    // Undefined only for an aborted fetch, which this cache never asks for.
    return (await this.#images.fetch(key, { context: draw })) ?? draw();
  }
}
