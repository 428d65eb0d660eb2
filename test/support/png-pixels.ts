// A chart PNG read back: its pixels decoded by resvg itself, and how much of a box is inked.
import { Resvg } from '@resvg/resvg-js';

/** The PNG's pixels, decoded by resvg itself from an SVG that shows only the image. */
export function pixelsOf(png: Buffer, width: number, height: number): Buffer {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><image width="${width}" height="${height}" href="data:image/png;base64,${png.toString('base64')}"/></svg>`;
  return new Resvg(svg, { font: { loadSystemFonts: false } }).render().pixels;
}

/** Pixels with any opacity inside a box (PNG pixels): the chart's ground is transparent. */
export function inkIn(
  pixels: Buffer,
  imageWidth: number,
  box: { left: number; top: number; width: number; height: number },
): number {
  let ink = 0;
  for (let y = box.top; y < box.top + box.height; y += 1) {
    for (let x = box.left; x < box.left + box.width; x += 1) {
      if ((pixels[(y * imageWidth + x) * 4 + 3] ?? 0) > 64) ink += 1;
    }
  }
  return ink;
}
