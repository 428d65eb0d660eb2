import { describe, expect, it } from 'vitest';
import type { AnswerContext } from '../../../../src/conversation/types.js';
import { renderReply } from '../../../../src/slack/answers/blocks.js';
import { ratingClickListener } from '../../../../src/slack/answers/rating-click.js';
import { encodeRatingValue } from '../../../../src/slack/kit/button-values.js';
import { clickArgs, fakes } from '../../../support/listener-fakes.js';
import { type Block, blockActionsPayload, IDS, nextTs } from '../../../support/slack-payloads.js';

const answer = renderReply({
  kind: 'answer',
  contextKey: 'ctx-1',
  answerHtml: 'Reset it from Settings.',
  stripe: undefined,
  suggestions: [],
  rateable: true,
  matched: true,
  clickedBy: undefined,
  demo: false,
  locale: 'en',
})[0];

function ratingClick(value: string | undefined, messageTs = nextTs()) {
  // The message as Slack sends it back: its blocks as plain JSON.
  const blocks: Block[] = JSON.parse(JSON.stringify(answer?.blocks ?? []));
  return blockActionsPayload({
    message: { ts: messageTs, thread_ts: nextTs(), text: answer?.text, blocks },
    actions: [{ action_id: 'rate_up', value }],
  });
}

const context: AnswerContext = {
  uid: undefined,
  cid: 'c1',
  msgId: 'm1',
  docId: 'doc-1',
  docName: 'Reset password',
  robotFlag: 1,
  placement: undefined,
  partnerId: `slack-${IDS.team}-${IDS.user}`,
  askerUserId: IDS.user,
  question: 'How do I reset my password?',
  suggestions: [],
  rateable: true,
  conversationId: IDS.channel,
  threadId: undefined,
  createdAt: 0,
};

describe('rating click listener', () => {
  it('rates for the clicker and shows the rating in place of the buttons', async () => {
    const f = fakes({ rateOutcome: { kind: 'rated', rating: 1, context } });
    const messageTs = nextTs();
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 1 }), messageTs), f.client),
    );
    expect(f.rated).toEqual([{ contextKey: 'ctx-1', rating: 1, userId: IDS.user, locale: 'en' }]);
    expect(f.slack.map((call) => call.method)).toEqual(['chat.update']);
    expect(f.slack[0]?.options).toMatchObject({ channel: IDS.channel, ts: messageTs });
    expect(JSON.stringify(f.slack[0]?.options.blocks)).not.toContain('rate_up');
    expect(f.events).toEqual(['rating:rated']);
  });

  it('counts the rating into its workspace’s day for the statistics, after the rating is shown', async () => {
    const f = fakes({ rateOutcome: { kind: 'rated', rating: 2, context } });
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 2 })), f.client),
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(await f.deps.ratingDays.read(IDS.team, [today])).toEqual([{ up: 0, down: 1 }]);
  });

  it('counts the rating under the workspace that gave the answer, not the rater’s (a shared channel)', async () => {
    const host = 'T0HOST';
    const f = fakes({ rateOutcome: { kind: 'rated', rating: 1, context: { ...context, workspace: host } } });
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 1 })), f.client),
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(await f.deps.ratingDays.read(host, [today])).toEqual([{ up: 1, down: 0 }]);
    expect(await f.deps.ratingDays.read(IDS.team, [today])).toEqual([{ up: 0, down: 0 }]);
  });

  it('shows the rating even when it cannot be counted, and logs why', async () => {
    const f = fakes({ rateOutcome: { kind: 'rated', rating: 1, context } });
    const deps = {
      ...f.deps,
      ratingTally: { store: { add: () => Promise.reject(new Error('store down')) }, timeZone: 'UTC' },
    };
    await ratingClickListener(deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 1 })), f.client),
    );
    expect(f.slack.map((call) => call.method)).toEqual(['chat.update']);
    expect(f.events).toEqual(['rating:rated']);
    expect(f.logs.map((line) => line.msg)).toContain('rating not counted for the statistics');
  });

  it('tells someone rating another person’s answer that it is not theirs, and changes nothing', async () => {
    const f = fakes({
      rateOutcome: { kind: 'notice', reply: { kind: 'notice', notice: 'not_your_answer', locale: 'en' } },
    });
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 2 })), f.client),
    );
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    expect(f.slack[0]?.options.user).toBe(IDS.user);
    expect(f.events).toEqual(['rating:notice']);
  });

  it('shows the rating again when an answer already rated is clicked', async () => {
    const f = fakes({
      rateOutcome: {
        kind: 'notice',
        reply: { kind: 'notice', notice: 'already_rated', locale: 'en' },
        rating: 2,
      },
    });
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 2 })), f.client),
    );
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral', 'chat.update']);
  });

  it('tells the clicker that a button with a malformed value cannot be rated', async () => {
    const f = fakes();
    await ratingClickListener(f.deps)(clickArgs(ratingClick('{}'), f.client));
    expect(f.rated).toEqual([]);
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    expect(JSON.stringify(f.slack[0]?.options)).toContain('too old');
  });

  it('rates a click on Slack’s feedback buttons as the same rating, the value saying which side', async () => {
    const f = fakes({ rateOutcome: { kind: 'rated', rating: 2, context } });
    const native = renderReply(
      {
        kind: 'answer',
        contextKey: 'ctx-1',
        answerHtml: 'Reset it from Settings.',
        stripe: undefined,
        suggestions: [],
        rateable: true,
        matched: true,
        clickedBy: undefined,
        demo: false,
        locale: 'en',
      },
      { rating: 'native' },
    )[0];
    const blocks: Block[] = JSON.parse(JSON.stringify(native?.blocks ?? []));
    const payload = blockActionsPayload({
      message: { ts: nextTs(), thread_ts: nextTs(), text: native?.text, blocks },
      actions: [
        {
          action_id: 'rate_feedback',
          block_id: 'rating',
          type: 'feedback_buttons',
          value: encodeRatingValue({ contextKey: 'ctx-1', rating: 2 }),
          text: '👎',
        },
      ],
    });
    await ratingClickListener(f.deps)(clickArgs(payload, f.client));
    expect(f.rated).toEqual([{ contextKey: 'ctx-1', rating: 2, userId: IDS.user, locale: 'en' }]);
    expect(f.slack.map((call) => call.method)).toEqual(['chat.update']);
    const updated = JSON.stringify(f.slack[0]?.options.blocks);
    expect(updated).not.toContain('feedback_buttons');
    expect(updated).toContain('rated this answer 👎 not helpful');
  });

  it('says a rating the platform did not take was not recorded, offering nothing to retry', async () => {
    const f = fakes({ rateOutcome: { kind: 'failure', reason: 'unavailable' } });
    await ratingClickListener(f.deps)(
      clickArgs(ratingClick(encodeRatingValue({ contextKey: 'ctx-1', rating: 1 })), f.client),
    );
    expect(f.slack.map((call) => call.method)).toEqual(['chat.postEphemeral']);
    const told = JSON.stringify(f.slack[0]?.options);
    expect(told).toContain('Your rating was not recorded: The answer service is unavailable right now.');
    expect(told).not.toContain('try_again');
    expect(f.events).toEqual(['rating:failure']);
  });
});
