import { describe, expect, it } from 'vitest';
import { splitMrkdwn, truncate, truncateMrkdwn } from '../../../src/slack/render/limits.js';

const hasBrokenSurrogate = (text: string) =>
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

describe('truncate', () => {
  it('returns short text unchanged', () => {
    expect(truncate('短问题', 75)).toBe('短问题');
  });

  it('cuts to the limit with an ellipsis', () => {
    const result = truncate('x'.repeat(200), 75);
    expect(result).toHaveLength(75);
    expect(result.endsWith('…')).toBe(true);
  });

  it('never splits a surrogate pair', () => {
    const emoji = '😀'.repeat(50);
    for (let max = 2; max < 20; max += 1) {
      const result = truncate(emoji, max);
      expect(result.length).toBeLessThanOrEqual(max);
      expect(hasBrokenSurrogate(result)).toBe(false);
    }
  });
});

describe('truncateMrkdwn', () => {
  it('does not cut inside an entity or a link', () => {
    expect(truncateMrkdwn('aaaa &amp; bbbb', 9)).toBe('aaaa…');
    expect(truncateMrkdwn('see <https://example.com/long|label> now', 20)).toBe('see…');
  });
});

describe('splitMrkdwn', () => {
  it('prefers paragraph breaks, then line breaks', () => {
    const paragraphs = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)].join('\n\n');
    expect(splitMrkdwn(paragraphs, 90)).toEqual([`${'a'.repeat(40)}\n\n${'b'.repeat(40)}`, 'c'.repeat(40)]);
    const lines = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)].join('\n');
    expect(splitMrkdwn(lines, 60)).toEqual(['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)]);
  });

  it('splits at a sentence end, Chinese or Latin, before falling back to spaces', () => {
    expect(splitMrkdwn('第一句话很长很长。第二句话也很长很长。', 12)).toEqual([
      '第一句话很长很长。',
      '第二句话也很长很长。',
    ]);
    expect(splitMrkdwn('One sentence here. Another one there', 25)).toEqual([
      'One sentence here.',
      'Another one there',
    ]);
    expect(splitMrkdwn('word word word word word', 12)).toEqual(['word word', 'word word', 'word']);
  });

  it('never cuts inside a link or an entity', () => {
    const text = `${'x'.repeat(20)} <https://example.com/${'p'.repeat(30)}|label> &amp;&amp;&amp; end`;
    // From the link's own length up: a link longer than the limit cannot be kept whole.
    for (let max = 60; max < text.length; max += 1) {
      for (const chunk of splitMrkdwn(text, max)) {
        expect(chunk.length).toBeLessThanOrEqual(max);
        expect((chunk.match(/</g) ?? []).length).toBe((chunk.match(/>/g) ?? []).length);
        expect(chunk).not.toMatch(/&[a-z]*$/);
        expect(chunk).not.toMatch(/^[a-z]*;/);
      }
    }
  });

  it('hard-cuts text with no break at all, without splitting surrogate pairs', () => {
    const text = '字😀'.repeat(1000);
    const chunks = splitMrkdwn(text, 101);
    expect(chunks.join('')).toBe(text);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(101);
      expect(hasBrokenSurrogate(chunk)).toBe(false);
    }
  });

  it('returns nothing for blank text and one chunk for short text', () => {
    expect(splitMrkdwn('  \n ', 10)).toEqual([]);
    expect(splitMrkdwn('short', 10)).toEqual(['short']);
  });
});
