// One way of showing a moment to people, wherever the app shows one: Slack's date token (each reader
// sees their own zone), with the same readable fallback — in the reader's zone where one reader is
// known (the Home, the edit modal), else in UTC saying so (the escalation line, a channel's settings).
import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { renderEscalatedLine } from '../../../../src/slack/answers/escalation.js';
import { renderChannelSettings } from '../../../../src/slack/channels/views.js';
import { renderHome } from '../../../../src/slack/home/views.js';
import { renderEditModal } from '../../../../src/slack/review/edit-modal.js';
import { modalInput } from '../../../support/review-views.js';

const AT = Date.UTC(2026, 10, 25, 12, 0);
const SECONDS = AT / 1000;
/** Slack's token with the fallback people read ("25 Nov 2026, 12:00", and " UTC" when it is). */
const TOKEN =
  /<!date\^(\d+)\^\{date_short_pretty\} \{time\}\|(\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}(?: UTC)?)>/;

function tokenIn(text: string): { seconds: number; fallback: string } {
  const match = TOKEN.exec(text);
  if (!match) throw new Error(`no date token as people read it in: ${text}`);
  return { seconds: Number(match[1]), fallback: match[2] ?? '' };
}

const json = (value: unknown) => JSON.stringify(value);

describe('a moment, wherever it is shown', () => {
  it('on the escalation line, which many read: the token, its fallback in UTC', () => {
    const line = renderEscalatedLine('en', 'U0SAM', new Date(AT), { users: ['U0ONCALL'], groups: [] });
    const text = line.elements.map((element) => ('text' in element ? String(element.text) : '')).join(' ');
    expect(tokenIn(text)).toEqual({ seconds: SECONDS, fallback: '25 Nov 2026, 12:00 UTC' });
  });

  it('in a channel’s settings: the same', () => {
    const { blocks } = renderChannelSettings('en', {
      channelId: 'C0ITHELP',
      stored: { settings: { robot: 2 }, changedBy: 'U0OP', changedAt: AT },
      heading: 'show',
      command: '/cs',
    });
    expect(tokenIn(json(blocks))).toEqual({ seconds: SECONDS, fallback: '25 Nov 2026, 12:00 UTC' });
  });

  it('on the Home, which one person reads: the token, its fallback in their zone', () => {
    const view = renderHome({
      locale: 'en',
      timeZone: 'Asia/Tokyo',
      examples: [],
      operator: {
        figures: {
          kind: 'report',
          at: AT,
          report: {
            period: { from: '2026-11-19', to: '2026-11-25' },
            previous: { from: '2026-11-12', to: '2026-11-18' },
            messages: [],
            satisfaction: [],
            previousMissing: false,
          },
        },
        review: {
          kind: 'cards',
          disliked: { total: 0, cards: [] },
          unanswered: { total: 0, cards: [] },
        },
        channels: new Map(),
        command: '/cs',
      },
    });
    expect(tokenIn(json(view))).toEqual({ seconds: SECONDS, fallback: '25 Nov 2026, 21:00' });
  });

  it('in the edit modal, which one operator reads: the same', () => {
    const view = renderEditModal(
      modalInput({ timeZone: 'Asia/Tokyo', prefill: { ...modalInput().prefill, seenAt: AT } }),
    );
    const texts = json(view.blocks as types.KnownBlock[]);
    expect(tokenIn(texts)).toEqual({ seconds: SECONDS, fallback: '25 Nov 2026, 21:00' });
  });
});
