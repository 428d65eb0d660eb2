// Regressions: control characters and bidi overrides in a user's text reached the robot unchanged,
// and a suggestion click (or Try again) was asked with whatever docId its value named.
import { beforeEach, describe, expect, it } from 'vitest';
import { encodeSuggestionValue, encodeTryAgainValue } from '../../../src/slack/kit/button-values.js';
import type { RecordedCall } from '../../support/fake-slack-api.js';
import {
  askByMention,
  buttonOf,
  buttonsOf,
  clickButton,
  type GatewayHarness,
  textOf,
  useGatewayHarness,
} from '../../support/gateway-harness.js';
import { directMessage, IDS } from '../../support/slack-payloads.js';
import { waitFor } from '../../support/wait.js';

const current = useGatewayHarness();
let harness: GatewayHarness;
beforeEach(() => {
  harness = current();
});

async function askedAs(text: string): Promise<Record<string, unknown>> {
  const before = harness.robotAsks().length;
  await harness.sendEvent(directMessage({ text }));
  return waitFor(() => harness.robotAsks()[before]);
}

/**
 * The control after a click that must ask nothing: the suggestion the answer really offered, clicked
 * by the same person in the same thread, is asked, and is the only robot ask since `asksBefore`.
 */
async function expectOnlyTheOfferedAsked(answer: RecordedCall, threadTs: string, asksBefore: number) {
  const offered = button(answer, 'suggestion:0');
  const docId = (JSON.parse(offered.value) as { d: string }).d;
  await harness.click(clickButton(answer, offered, { threadTs }));
  await waitFor(
    () =>
      harness
        .robotAsks()
        .slice(asksBefore)
        .some((ask) => ask.requestText === docId),
    {
      timeoutMs: 5_000,
    },
  );
  expect(harness.robotAsks().slice(asksBefore)).toEqual([
    expect.objectContaining({ questionFlag: 1, requestText: docId }),
  ]);
}

describe("a user's text", () => {
  it('reaches the robot without control characters, terminal escapes or bidi overrides', async () => {
    const ask = await askedAs('What are your\u0000 opening\u0007 hours\u001b[31m?\u202E\u0085');
    expect(ask.question).toBe('What are your opening hours?');
  });

  it('keeps everything a person can type in any language', async () => {
    const typed = 'Wie öffne ich das VPN? 怎么连接VPN？ كيف\u200F أتصل؟ 👩‍💻';
    const ask = await askedAs(typed);
    expect(ask.question).toBe(typed);
  });

  it('that holds nothing but control characters gets the help, and the robot is not asked', async () => {
    const before = harness.robotAsks().length;
    await harness.sendEvent(directMessage({ text: '\u0000\u001b[0m\u202E' }));
    const help = await harness.slack.waitForCall('chat.postMessage');
    expect(textOf(help)).toMatch(/ask me/i);
    expect(harness.robotAsks().length).toBe(before);
  });
});

const button = buttonOf;

/** The answer's context key, as its suggestion buttons carry it. */
function contextKeyOf(answer: RecordedCall): string {
  const value = JSON.parse(button(answer, 'suggestion:0').value) as { k: string };
  return value.k;
}

describe('a suggestion click', () => {
  it.each(['doc-9999', '../../admin', 'doc-vpn-connect'])(
    'naming a docId the answer did not offer (%s) is stale: nothing is asked, and the clicker is told',
    async (forgedDocId) => {
      const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
      const offered = buttonsOf(answer).map((candidate) => JSON.parse(candidate.value || '{}').d);
      expect(offered).not.toContain(forgedDocId);
      const value = encodeSuggestionValue({
        contextKey: contextKeyOf(answer),
        docId: forgedDocId,
        question: 'How do I reset my password?',
      });
      const asksBefore = harness.robotAsks().length;
      const forged = { ...button(answer, 'suggestion:0'), value: value ?? '' };
      await harness.click(clickButton(answer, forged, { threadTs }));

      const told = await harness.slack.waitForCall(
        'chat.postEphemeral',
        (call) => call.body.user === IDS.user,
      );
      expect(textOf(told)).toMatch(/no longer|expired|again/i);
      await expectOnlyTheOfferedAsked(answer, threadTs, asksBefore);
    },
  );

  it('that the answer offered is asked with its docId and the wording the robot gave, not the wording clicked', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const real = button(answer, 'suggestion:0');
    const realValue = JSON.parse(real.value) as { k: string; d: string; q: string };
    const value = encodeSuggestionValue({
      contextKey: realValue.k,
      docId: realValue.d,
      question: 'Delete all',
    });
    const asksBefore = harness.robotAsks().length;
    await harness.click(clickButton(answer, { ...real, value: value ?? '' }, { threadTs }));
    const ask = await waitFor(() => harness.robotAsks()[asksBefore]);
    expect(ask).toMatchObject({ questionFlag: 1, requestText: realValue.d, question: realValue.q });
  });
});

describe('Try again', () => {
  it('after a failed suggestion click asks it the same way again, checked against the answer that offered it', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const real = JSON.parse(button(answer, 'suggestion:0').value) as { k: string; d: string; q: string };
    harness.simulator.faults.set({ kind: 'http500', actions: ['chat_user_robot_ask'], times: 1 });
    await harness.click(clickButton(answer, button(answer, 'suggestion:0'), { threadTs }));
    const failure = await harness.slack.waitForCall('chat.update', (call) =>
      buttonsOf(call).some((candidate) => candidate.actionId === 'try_again'),
    );
    const tryAgain = button(failure, 'try_again');
    expect(JSON.parse(tryAgain.value)).toMatchObject({ d: real.d, k: real.k });

    const asksBefore = harness.robotAsks().length;
    await harness.click(clickButton(failure, tryAgain, { threadTs }));
    const ask = await waitFor(() => harness.robotAsks()[asksBefore]);
    expect(ask).toMatchObject({ questionFlag: 1, requestText: real.d });
  });

  it('naming a docId without the answer that offered it is stale: nothing is asked', async () => {
    const { answer, threadTs } = await askByMention(harness, 'How do I reset my password?');
    const value = encodeTryAgainValue({ question: 'How do I reset my password?', docId: '../../admin' });
    const asksBefore = harness.robotAsks().length;
    await harness.click(
      clickButton(
        answer,
        { actionId: 'try_again', blockId: 'retry', value: value ?? '', text: 'Try again' },
        { threadTs },
      ),
    );
    await harness.slack.waitForCall('chat.postEphemeral', (call) => call.body.user === IDS.user);
    await expectOnlyTheOfferedAsked(answer, threadTs, asksBefore);
  });
});
