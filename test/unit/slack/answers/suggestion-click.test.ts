import { describe, expect, it } from 'vitest';
import { suggestionClickListener } from '../../../../src/slack/answers/suggestion-click.js';
import { encodeSuggestionValue } from '../../../../src/slack/kit/button-values.js';
import { clickArgs, fakes } from '../../../support/listener-fakes.js';
import { blockActionsPayload, IDS, nextTs } from '../../../support/slack-payloads.js';

function suggestionClick(value: string | undefined, threadTs = nextTs()) {
  return blockActionsPayload({
    user: 'U0CLICKER',
    message: { ts: nextTs(), thread_ts: threadTs },
    actions: [{ action_id: 'suggestion:0', value }],
  });
}

describe('suggestion click listener', () => {
  it('asks the clicked suggestion for the person who clicked, in the same thread', async () => {
    const f = fakes();
    const value = encodeSuggestionValue({
      contextKey: 'ctx-7',
      docId: 'doc-3',
      question: 'How do I log in?',
    });
    const threadTs = nextTs();
    await suggestionClickListener(f.deps)(clickArgs(suggestionClick(value, threadTs), f.client));
    expect(f.asked).toHaveLength(1);
    expect(f.asked[0]?.input).toMatchObject({
      text: 'How do I log in?',
      conversationId: IDS.channel,
      threadId: threadTs,
      asker: { userId: 'U0CLICKER' },
      suggestion: { contextKey: 'ctx-7', docId: 'doc-3', question: 'How do I log in?' },
    });
    expect(f.events).toEqual(['suggestion:question']);
  });

  it.each([
    ['not JSON', '{nope'],
    ['a rating value', '{"v":1,"k":"ctx","r":1}'],
    ['no value', undefined],
  ])('ignores a click whose value is %s', async (_name, value) => {
    const f = fakes();
    await suggestionClickListener(f.deps)(clickArgs(suggestionClick(value), f.client));
    expect(f.asked).toEqual([]);
    expect(f.slack).toEqual([]);
    expect(f.logs.map((line) => line.msg)).toEqual(['ignored a suggestion click with a malformed value']);
  });

  it('ignores a click of unexpected shape', async () => {
    const f = fakes();
    const body = { ...suggestionClick('{}'), user: { name: 'no id' } };
    await suggestionClickListener(f.deps)({
      body,
      action: { action_id: 'suggestion:0' },
      client: f.client,
      context: { teamId: IDS.team },
    });
    expect(f.asked).toEqual([]);
    expect(f.logs).toMatchObject([{ msg: 'ignored a click of unexpected shape', actionId: 'suggestion:0' }]);
  });
});
