import { describe, expect, it } from 'vitest';
import { toPlainText } from '../../../../src/answer-html/mrkdwn.js';
import { splitMrkdwn, truncate, truncateMrkdwn } from '../../../../src/slack/kit/limits.js';

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

describe('splitMrkdwn and formatting spans', () => {
  /** What Slack shows of a chunk once its paired markers are applied; a stray marker stays visible. */
  const shown = (chunk: string) => toPlainText(chunk);
  const squash = (text: string) => text.replace(/\s+/g, '');

  it('closes *bold* at the cut and reopens it in the next part (English)', () => {
    const inner = 'This sentence is bold and rather long. '.repeat(12).trim();
    const chunks = splitMrkdwn(`*${inner}*`, 100);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(100);
      expect(chunk).toMatch(/^\*\S[\s\S]*\S\*$/);
      expect(shown(chunk)).not.toContain('*');
    }
    expect(chunks.map(shown).join(' ')).toBe(inner);
  });

  it.each([
    ['_italic_', '_'],
    ['~strike~', '~'],
  ])('closes %s at a Chinese sentence end and reopens it', (_name, marker) => {
    const inner = '这是一段很长的文字，需要分成几条消息发送。'.repeat(12);
    const chunks = splitMrkdwn(`${marker}${inner}${marker}`, 60);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(60);
      expect(chunk.startsWith(marker) && chunk.endsWith(`。${marker}`)).toBe(true);
      expect(shown(chunk)).not.toContain(marker);
    }
    expect(chunks.map(shown).join('')).toBe(inner);
  });

  it('closes nested spans innermost first and reopens them outermost first', () => {
    const text = `*bold start _${'deep italic text goes on '.repeat(8).trim()}_ bold end*`;
    const chunks = splitMrkdwn(text, 80);
    expect(chunks[0]?.endsWith('_*')).toBe(true);
    expect(chunks[1]?.startsWith('*_')).toBe(true);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(80);
      expect(shown(chunk)).not.toMatch(/[*_]/);
    }
  });

  it('keeps a ``` code block a code block in every part, indentation included', () => {
    const lines = Array.from({ length: 30 }, (_, n) => `    line ${n} of the example`);
    const chunks = splitMrkdwn(`\`\`\`\n${lines.join('\n')}\n\`\`\``, 200);
    expect(chunks.length).toBeGreaterThan(1);
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(200);
      expect(chunk.startsWith('```\n') && chunk.endsWith('\n```')).toBe(true);
    }
    expect(chunks.flatMap((chunk) => chunk.slice(4, -4).split('\n'))).toEqual(lines);
  });

  it('prefers a break outside a span to a later one inside it (English and Chinese)', () => {
    const english = `Plain words come first in this answer here. *Bold sentence two is here. Bold sentence three goes on and on*`;
    expect(splitMrkdwn(english, 80)).toEqual([
      'Plain words come first in this answer here.',
      '*Bold sentence two is here. Bold sentence three goes on and on*',
    ]);
    const chinese = `普通的句子放在最前面，这句话要写得足够长才行。*加粗的第二句话在这里。加粗的第三句话继续写得很长很长很长*`;
    expect(splitMrkdwn(chinese, 40)).toEqual([
      '普通的句子放在最前面，这句话要写得足够长才行。',
      '*加粗的第二句话在这里。加粗的第三句话继续写得很长很长很长*',
    ]);
  });

  it('does not cut at a blank line inside a code block when a line break outside it will do', () => {
    const intro = `${'Intro text that explains the example. '.repeat(3).trim()}\nRun this:`;
    const code = '```\nstep one\n\nstep two\n```';
    expect(splitMrkdwn(`${intro}\n${code}`, intro.length + 16)).toEqual([intro, code]);
  });

  it('never leaves a stray marker or loses text, whatever the mix and the limit', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed / 2_147_483_648;
    };
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const words = [
      'password',
      'reset',
      'VPN',
      '密码',
      '重置',
      '连接',
      'portal',
      '😀',
      '&amp;',
      '<https://x.example/a_b|link>',
    ];
    const phrase = () => Array.from({ length: 1 + Math.floor(random() * 6) }, () => pick(words)).join(' ');
    for (let round = 0; round < 200; round += 1) {
      const pieces = Array.from({ length: 4 + Math.floor(random() * 8) }, () => {
        const kind = pick(['plain', 'bold', 'italic', 'strike', 'code', 'nested', 'block', 'break']);
        if (kind === 'bold') return `*${phrase()}*`;
        if (kind === 'italic') return `_${phrase()}_`;
        if (kind === 'strike') return `~${phrase()}~`;
        if (kind === 'code') return `\`${phrase()}\``;
        if (kind === 'nested') return `*${phrase()} _${phrase()}_ ${phrase()}*`;
        if (kind === 'block') return `\n\`\`\`\n${phrase()}\n  ${phrase()}\n\`\`\`\n`;
        if (kind === 'break') return pick(['\n', '\n\n', '。', '. ']);
        return phrase();
      });
      const text = pieces.join(' ');
      // From above the longest link up: a link longer than the limit is cut anyway (tested above).
      const limit = 40 + Math.floor(random() * 120);
      const chunks = splitMrkdwn(text, limit);
      for (const chunk of chunks) {
        expect(chunk.length, chunk).toBeLessThanOrEqual(limit);
        // Code blocks are checked by their fences; outside them every marker must be paired.
        const outsideBlocks = shown(chunk.replace(/```[\s\S]*?```/g, ' ')).replace(/<[^>]*>/g, '');
        expect(outsideBlocks, chunk).not.toMatch(/[*~`]|(^|\s)_|_(\s|$)/);
        expect((chunk.match(/```/g) ?? []).length % 2, chunk).toBe(0);
      }
      // Nothing is lost or repeated: the same words in the same order, markers aside.
      const words = (mrkdwn: string) => squash(mrkdwn.replace(/[*_~`]/g, ''));
      expect(words(chunks.join(''))).toBe(words(text));
    }
  });
});
