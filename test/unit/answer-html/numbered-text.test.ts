// A line of an answer that starts like a list item ("1. Open Settings", "2) Sign in", "- VPN") and is
// text, not a list: the edit modal shows it as written, without Markdown's `1\.` or `\-`, and saving
// keeps it text.
import { describe, expect, it } from 'vitest';
import { htmlToMarkup, markupToHtml } from '../../../src/answer-html/editor-markdown.js';

describe('numbered text in the editor', () => {
  it('shows no backslash, and reads like the answer', () => {
    const markup = htmlToMarkup('<p>Steps:<br>1. Open Settings<br>2) Sign in again</p>');
    expect(markup).not.toContain('\\');
    // What the operator reads: a no-break space after the number, which looks like the space it was.
    expect(markup.replace(/\u00A0/g, ' ')).toBe('Steps:\n1. Open Settings\n2) Sign in again');
  });

  it('saves it back as the same text, not as a list, with its ordinary space', () => {
    const html = '<p>1. Open Settings<br>2) Sign in again</p>';
    expect(markupToHtml(htmlToMarkup(html))).toBe(html);
  });

  it('does the same for a dash or a plus, and escapes nothing that could not be a list', () => {
    const html = '<p>- VPN first<br>+ then Wi-Fi<br>-5 degrees outside<br>+1 for that</p>';
    const markup = htmlToMarkup(html);
    expect(markup).not.toContain('\\');
    expect(markup.replace(/\u00A0/g, ' ')).toBe('- VPN first\n+ then Wi-Fi\n-5 degrees outside\n+1 for that');
    expect(markupToHtml(markup)).toBe(html);
  });

  it('still makes a list of a list the operator types', () => {
    expect(markupToHtml('1. Open Settings\n2. Sign in again')).toBe(
      '<ol><li>Open Settings</li><li>Sign in again</li></ol>',
    );
  });
});
