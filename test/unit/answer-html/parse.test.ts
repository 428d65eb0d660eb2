import { describe, expect, it } from 'vitest';
import { htmlToMarkup, unsupportedMarkup } from '../../../src/answer-html/editor-markdown.js';
import { parseAnswerHtml } from '../../../src/answer-html/parse.js';

/** The parsed answer written back as HTML, to see where the <br> went. */
function serialized(html: string): string {
  const { root } = parseAnswerHtml(html);
  return (root as unknown as { innerHTML: string }).innerHTML;
}

describe('parseAnswerHtml', () => {
  it('reads a raw newline as a line break, and one beside a block tag as layout', () => {
    expect(serialized('a\nb')).toBe('a<br>b');
    expect(serialized('<b>a</b>\n<i>b</i>')).toBe('<b>a</b><br><i>b</i>');
    expect(serialized('<p>a</p>\n<p>b</p>')).toBe('<p>a</p>\n<p>b</p>');
    expect(serialized('<ul>\n  <li>a\n  b</li>\n</ul>')).toBe('<ul>\n  <li>a<br>b</li>\n</ul>');
  });

  it('keeps newlines in preformatted text, and &nbsp; that indents a line', () => {
    expect(serialized('<pre>a\nb</pre>')).toBe('<pre>a\nb</pre>');
    expect(serialized('a\n&nbsp;&nbsp;b')).toBe('a<br>&nbsp;&nbsp;b');
  });

  it('strips the private-use sentinels the dialects write', () => {
    expect(serialized('a\uE000b\uE005c')).toBe('abc');
  });

  it('serves every reader from one parse, and no reader changes it', () => {
    const html =
      '<p>Hello <span style="color:red">there</span></p>\n<ul><li>one\ntwo</li></ul><table><tr><td>x</td></tr></table>';
    const answer = parseAnswerHtml(html);
    const before = serialized(html);
    expect(htmlToMarkup(answer)).toBe(htmlToMarkup(html));
    expect(unsupportedMarkup(answer)).toEqual(unsupportedMarkup(html));
    expect(htmlToMarkup(answer)).toBe(htmlToMarkup(html));
    expect((answer.root as unknown as { innerHTML: string }).innerHTML).toBe(before);
  });

  it('parses answers nested far deeper than a recursive walk could follow', () => {
    const nested = `${'<span style="x">'.repeat(20_000)}deep${'</span>'.repeat(20_000)}`;
    expect(unsupportedMarkup(parseAnswerHtml(nested))).toEqual(['span']);
  });
});
