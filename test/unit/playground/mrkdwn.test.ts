import { describe, expect, it } from 'vitest';
import { type MrkdwnNode, parseMrkdwn } from '../../../playground/web/mrkdwn.js';

/** The tree as a compact string: formatting as tags, so a test reads like the markup it checks. */
function show(nodes: MrkdwnNode[]): string {
  return nodes
    .map((node) => {
      switch (node.kind) {
        case 'text':
          return node.text;
        case 'bold':
        case 'italic':
        case 'strike':
        case 'quote':
          return `<${node.kind}>${show(node.children)}</${node.kind}>`;
        case 'code':
        case 'preformatted':
          return `<${node.kind}>${node.text}</${node.kind}>`;
        case 'break':
          return '<br>';
        case 'link':
          return `<a ${node.url}>${show(node.children)}</a>`;
        case 'user':
        case 'channel':
        case 'usergroup':
          return `<${node.kind} ${node.id}${node.label === undefined ? '' : `|${node.label}`}>`;
        case 'broadcast':
          return `<broadcast ${node.name}>`;
        case 'date':
          return `<date ${node.epoch} ${node.format}|${node.fallback}>`;
        case 'emoji':
          return `<emoji ${node.name}>`;
        default:
          return '<unknown>';
      }
    })
    .join('');
}

describe('mrkdwn as Slack reads it', () => {
  it('reads bold, italic, strike and code, nested where Slack nests them', () => {
    expect(show(parseMrkdwn('*bold* _italic_ ~gone~ `x*y*`'))).toBe(
      '<bold>bold</bold> <italic>italic</italic> <strike>gone</strike> <code>x*y*</code>',
    );
    expect(show(parseMrkdwn('*bold _and italic_*'))).toBe('<bold>bold <italic>and italic</italic></bold>');
  });

  it('leaves markers that open or close inside a word, or around spaces, as text', () => {
    expect(show(parseMrkdwn('2*3*4 and snake_case_name and * not bold *'))).toBe(
      '2*3*4 and snake_case_name and * not bold *',
    );
  });

  it('reads markers beside Chinese text when a zero-width space marks the boundary, as the gateway writes them', () => {
    expect(show(parseMrkdwn('点击\u200B*忘记密码*\u200B，'))).toBe('点击\u200B<bold>忘记密码</bold>\u200B，');
  });

  it('reads links, labels, mentions and broadcasts, and decodes entities after reading them', () => {
    expect(
      show(parseMrkdwn('<https://a.example/?q=1&amp;r=2|the *portal*> <@U1> <@U2|jane> <#C1|help> <!here>')),
    ).toBe(
      '<a https://a.example/?q=1&r=2>the <bold>portal</bold></a> <user U1> <user U2|jane> <channel C1|help> <broadcast @here>',
    );
    expect(show(parseMrkdwn('a &lt;b&gt; &amp; c'))).toBe('a <b> & c');
  });

  it('reads a user group mention by its id, with its label without the @ an old-style label carries', () => {
    // The page draws it as Slack does, by its handle (@it-oncall), never as a bare "@group".
    expect(show(parseMrkdwn('<!subteam^S0ITONCALL> <!subteam^S1|@it-oncall> <!subteam^S2|hr-desk>'))).toBe(
      '<usergroup S0ITONCALL> <usergroup S1|it-oncall> <usergroup S2|hr-desk>',
    );
  });

  it("reads a date token's moment, format and fallback, for the page to draw in the reader's zone", () => {
    expect(show(parseMrkdwn('at <!date^1795943310^{date_short_pretty} {time}|29 Nov 2026, 09:08 UTC>'))).toBe(
      'at <date 1795943310 {date_short_pretty} {time}|29 Nov 2026, 09:08 UTC>',
    );
  });

  it('reads code blocks literally, and quotes line by line', () => {
    expect(show(parseMrkdwn('before\n```\n*not bold*\n```\nafter'))).toBe(
      'before<preformatted>*not bold*\n</preformatted>after',
    );
    expect(show(parseMrkdwn('&gt; quoted *line*\n&gt; second\nplain'))).toBe(
      '<quote>quoted <bold>line</bold><br>second</quote>plain',
    );
  });

  it('makes bare URLs links, as Slack does, leaving trailing punctuation out', () => {
    expect(show(parseMrkdwn('unlock it at https://password.example.com/unlock.'))).toBe(
      'unlock it at <a https://password.example.com/unlock>https://password.example.com/unlock</a>.',
    );
  });

  it('reads emoji shortcodes and keeps line breaks', () => {
    expect(show(parseMrkdwn(':hourglass_flowing_sand: Thinking…\nnext'))).toBe(
      '<emoji hourglass_flowing_sand> Thinking…<br>next',
    );
  });
});
