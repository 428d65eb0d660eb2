import { describe, expect, it } from 'vitest';
import { code, escapedLine, shortenMrkdwn, tidy } from '../../../../src/slack/kit/text.js';

describe('text helpers', () => {
  it('put untrusted text on one escaped line', () => {
    expect(escapedLine('  a\n<b>  & c ', 100)).toBe('a &lt;b&gt; &amp; c');
  });

  it('shorten mrkdwn with … only when something was left out', () => {
    expect(shortenMrkdwn('short', 10)).toBe('short');
    const long = shortenMrkdwn('word '.repeat(50), 20);
    expect(long.length).toBeLessThanOrEqual(20);
    expect(long.endsWith('…')).toBe(true);
  });

  it('show an id in code unless it would break out of the span', () => {
    expect(code('d-1')).toBe('`d-1`');
    expect(code('a`b')).toBe('a`b');
  });

  it('tidy spacing', () => {
    expect(tidy(' a  b ')).toBe('a b');
  });
});
