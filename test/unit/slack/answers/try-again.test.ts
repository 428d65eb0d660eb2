import { describe, expect, it } from 'vitest';
import { tryAgainListener } from '../../../../src/slack/answers/try-again.js';
import { encodeTryAgainValue } from '../../../../src/slack/kit/button-values.js';
import { clickArgs, fakes } from '../../../support/listener-fakes.js';
import { blockActionsPayload, IDS, nextTs } from '../../../support/slack-payloads.js';

function tryAgainClick(value: string | undefined, messageTs = nextTs()) {
  return blockActionsPayload({
    message: { ts: messageTs, thread_ts: nextTs() },
    actions: [{ action_id: 'try_again', value }],
  });
}

const textOf = (options: Record<string, unknown>) => JSON.stringify(options);

describe('try again listener', () => {
  it('asks the same question again and replaces the failure message with the answer', async () => {
    const f = fakes();
    const failureTs = nextTs();
    const value = encodeTryAgainValue({ question: 'Where is the VPN guide?', docId: undefined });
    await tryAgainListener(f.deps)(clickArgs(tryAgainClick(value, failureTs), f.client));
    expect(f.asked.map((ask) => ask.input.text)).toEqual(['Where is the VPN guide?']);
    expect(f.asked[0]?.input.suggestion).toBeUndefined();
    // The failure becomes "working on it" at once, then the answer: no new message.
    expect(f.slack.map((call) => call.method)).toEqual(['chat.update', 'chat.update']);
    expect(f.slack.every((call) => call.options.ts === failureTs)).toBe(true);
    expect(f.events).toEqual(['try_again:question']);
  });

  it('asks a retried suggestion with the answer that offered it', async () => {
    const f = fakes();
    const value = encodeTryAgainValue({ question: 'How do I log in?', docId: 'doc-3', contextKey: 'ctx-7' });
    await tryAgainListener(f.deps)(clickArgs(tryAgainClick(value), f.client));
    expect(f.asked[0]?.input.suggestion).toEqual({
      contextKey: 'ctx-7',
      docId: 'doc-3',
      question: 'How do I log in?',
    });
  });

  it('tells the clicker a retried suggestion without its answer’s key is stale, and asks nothing', async () => {
    const f = fakes();
    const value = encodeTryAgainValue({ question: 'How do I log in?', docId: 'doc-3' });
    await tryAgainListener(f.deps)(clickArgs(tryAgainClick(value), f.client));
    expect(f.asked).toEqual([]);
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    expect(f.slack[0]?.options.user).toBe(IDS.user);
    expect(textOf(f.slack[0]?.options ?? {})).toContain('too old');
  });

  it('ignores a click whose value is not a Try again value', async () => {
    const f = fakes();
    await tryAgainListener(f.deps)(clickArgs(tryAgainClick('{"v":2}'), f.client));
    expect(f.asked).toEqual([]);
    expect(f.slack).toEqual([]);
    expect(f.logs.map((line) => line.msg)).toEqual(['ignored a try-again click with a malformed value']);
  });
});
