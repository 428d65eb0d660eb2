// src/answer-html/ sits below both of its readers: the Slack adapter and the review loop import it,
// never the other way round.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const folder = fileURLToPath(new URL('../../../src/answer-html/', import.meta.url));

describe('src/answer-html', () => {
  it('imports nothing from src/slack or src/review', () => {
    const offending = readdirSync(folder)
      .filter((file) => file.endsWith('.ts'))
      .flatMap((file) =>
        [...readFileSync(`${folder}${file}`, 'utf8').matchAll(/from '([^']+)'/g)]
          .map((match) => match[1] ?? '')
          .filter((specifier) => /^\.\.\/(?:slack|review)\//.test(specifier))
          .map((specifier) => `${file}: ${specifier}`),
      );
    expect(offending).toEqual([]);
  });
});
