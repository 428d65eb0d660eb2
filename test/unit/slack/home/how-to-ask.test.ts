// The Home's "How to ask" names every way to ask: the assistant panel beside a channel, and the help
// channels that answer on their own, beside the DM, a mention and a thread.
import { expect, it } from 'vitest';
import { renderHome } from '../../../../src/slack/home/views.js';

function howToAsk(locale: 'en' | 'zh-CN'): string {
  const block = renderHome({ locale, examples: [] }).blocks[1];
  return block?.type === 'section' ? (block.text?.text ?? '') : '';
}

it('mentions the assistant panel and the help channels, in both languages', () => {
  const english = howToAsk('en');
  expect(english).toContain('*Beside any channel:* open me in Slack’s assistant panel');
  expect(english).toContain('*In a help channel:* some channels are set up to answer questions on their own');
  const chinese = howToAsk('zh-CN');
  expect(chinese).toContain('助手面板');
  expect(chinese).toContain('*在求助频道中：*');
});
