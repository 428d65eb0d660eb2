// An http(s) address, read the same wherever it is given (CS_OPEN_URL, a workspace's set-up, OTLP).
import { z } from 'zod';

export function isHttpUrl(text: string): boolean {
  const protocol = URL.parse(text)?.protocol;
  return protocol === 'http:' || protocol === 'https:';
}

/** An http(s) URL, without its trailing slashes. */
export const httpUrlSchema = z
  .string()
  .refine(isHttpUrl, 'must be an http(s) URL')
  .transform((text) => text.replace(/\/+$/, ''));
