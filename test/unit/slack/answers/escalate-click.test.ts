import { describe, expect, it } from 'vitest';
import type { AnswerContext } from '../../../../src/conversation/types.js';
import { escalateClickListener } from '../../../../src/slack/answers/escalate-click.js';
import type { EscalationClaims, EscalationRoutes } from '../../../../src/slack/answers/escalation.js';
import { encodeAnswerValue } from '../../../../src/slack/kit/button-values.js';
import { clickArgs, type Fakes, fakes, type RoomDeps, reviewOff } from '../../../support/listener-fakes.js';
import { blockActionsPayload, IDS, nextTs } from '../../../support/slack-payloads.js';

const context: AnswerContext = {
  uid: undefined,
  cid: 'c1',
  msgId: 'm1',
  docId: undefined,
  docName: 'My printer is on fire',
  robotFlag: 2,
  placement: undefined,
  partnerId: `slack-${IDS.team}-${IDS.user}`,
  askerUserId: IDS.user,
  question: 'My printer is on fire',
  suggestions: [],
  rateable: false,
  conversationId: IDS.channel,
  threadId: '1700000000.000001',
  createdAt: 0,
};

const toOnCall: EscalationRoutes = () => ({
  targets: { users: [], groups: ['S0ITDESK'] },
  channelId: undefined,
});

function click(value: string | undefined = encodeAnswerValue('ctx-1')) {
  return blockActionsPayload({
    message: { ts: nextTs(), thread_ts: context.threadId, text: 'Sorry', blocks: [] },
    actions: [{ action_id: 'escalate', block_id: 'escalate', value }],
  });
}

async function clickWith(
  f: Fakes,
  parts: {
    routes?: EscalationRoutes;
    claims?: EscalationClaims;
    context?: RoomDeps['review']['context'];
  },
) {
  const deps: RoomDeps = {
    ...f.deps,
    review: { ...reviewOff(), context: parts.context ?? (async () => context) },
    escalations: parts.routes ?? toOnCall,
    escalationClaims: parts.claims ?? { claim: async () => true, release: async () => undefined },
  };
  await escalateClickListener(deps)(clickArgs(click(), f.client));
}

const ephemeralText = (f: Fakes) =>
  f.slack.filter((call) => call.method === 'chat.postEphemeral').map((call) => String(call.options.text));

describe('escalation click listener', () => {
  it('calls no one while the claim cannot be had (the shared store is down), and says so', async () => {
    const f = fakes();
    await clickWith(f, {
      claims: { claim: () => Promise.reject(new Error('redis down')), release: async () => undefined },
    });
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    expect(ephemeralText(f)).toEqual(['I could not reach a person just now. Please try again.']);
    expect(f.events).toEqual(['escalation:failed']);
    expect(
      f.logs.find((record) => record.msg === 'escalation claim unavailable; no one called'),
    ).toMatchObject({
      contextKey: 'ctx-1',
    });
  });

  it('calls no one where the place no longer names anyone, and claims nothing', async () => {
    const f = fakes();
    const claimed: string[] = [];
    await clickWith(f, {
      routes: () => undefined,
      claims: {
        claim: async (key) => {
          claimed.push(key);
          return true;
        },
        release: async () => undefined,
      },
    });
    expect(claimed).toEqual([]);
    expect(ephemeralText(f)).toEqual(['There is no one to call from here any more. Please ask again.']);
  });

  it('calls no one when the answer cannot be looked up, and says the storage is unreachable', async () => {
    const f = fakes();
    await clickWith(f, { context: () => Promise.reject(new Error('store down')) });
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    expect(ephemeralText(f)[0]).toContain('storage');
  });

  it('posts the call in the thread the answer lives in, and leaves a message without blocks as it is', async () => {
    const f = fakes();
    await clickWith(f, {});
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postMessage']);
    expect(f.slack[0]?.options).toMatchObject({ channel: IDS.channel, thread_ts: context.threadId });
    expect(String(f.slack[0]?.options.text)).toContain('<!subteam^S0ITDESK>');
    expect(f.events).toEqual(['escalation:called']);
  });
});
