import type { types } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import type { People } from '../../../../src/conversation/channel-settings.js';
import { ESCALATE_BLOCK_ID, renderReply, replaceBlock } from '../../../../src/slack/answers/blocks.js';
import {
  escalationRoutes,
  renderCall,
  renderEscalatedLine,
} from '../../../../src/slack/answers/escalation.js';
import { FALLBACK_TEXT_MAX, SECTION_TEXT_MAX } from '../../../../src/slack/kit/limits.js';

const people: People = { users: ['U0ALICE'], groups: ['S0ONCALL'] };

function sections(blocks: types.KnownBlock[]): string[] {
  return blocks.flatMap((block) => (block.type === 'section' && block.text ? [block.text.text] : []));
}

describe('escalationRoutes', () => {
  const policies: Record<string, People | 'off'> = { 'T1:C0HELP': people, 'T1:C0OFF': 'off' };
  const channels = {
    policyOf: (workspace: string, channelId: string) => ({
      escalate: policies[`${workspace}:${channelId}`] ?? 'off',
    }),
  };

  it("calls a channel's people in the question's thread, and no one where the channel names none", () => {
    const routes = escalationRoutes(channels, undefined);
    expect(routes('T1', 'C0HELP')).toEqual({ targets: people, channelId: undefined });
    expect(routes('T1', 'C0OFF')).toBeUndefined();
    expect(routes('T1', 'C0NEW')).toBeUndefined();
    // Another workspace's channel is its own.
    expect(routes('T2', 'C0HELP')).toBeUndefined();
  });

  it("calls a DM's people in the escalation channel, and no one in DMs without them", () => {
    const direct = { targets: { users: ['U0BOB'], groups: [] }, channelId: 'C0DESK' };
    expect(escalationRoutes(channels, direct)('T1', 'D0JANE')).toEqual(direct);
    expect(escalationRoutes(channels, undefined)('T1', 'D0JANE')).toBeUndefined();
  });
});

describe('renderCall', () => {
  it('mentions the people and groups, says who asked, and quotes the question escaped', () => {
    const call = renderCall({
      locale: 'en',
      targets: people,
      askerUserId: 'U0JANE',
      clickerUserId: 'U0JANE',
      question: 'Why is <b>my</b> VPN & mail down?\nSince 9am',
    });
    expect(sections(call.blocks)).toEqual([
      '<!subteam^S0ONCALL> <@U0ALICE>\n<@U0JANE> asks for a person to help with this question:',
      '>Why is &lt;b&gt;my&lt;/b&gt; VPN &amp; mail down?\n>Since 9am',
    ]);
    // The notification's text mentions them too.
    expect(call.text).toContain('<!subteam^S0ONCALL> <@U0ALICE>');
  });

  it('says who clicked when it was not the asker, in the place’s language', () => {
    const call = renderCall({
      locale: 'zh-CN',
      targets: people,
      askerUserId: 'U0JANE',
      clickerUserId: 'U0SAM',
      question: '打印机坏了',
    });
    expect(sections(call.blocks)[0]).toBe(
      '<!subteam^S0ONCALL> <@U0ALICE>\n<@U0SAM> 请人工帮忙解答 <@U0JANE> 的这个问题：',
    );
  });

  it("carries a DM's answer to the people called, who cannot see the DM", () => {
    const call = renderCall({
      locale: 'en',
      targets: { users: [], groups: ['S0ONCALL'] },
      askerUserId: 'U0JANE',
      clickerUserId: 'U0JANE',
      question: 'How do I reset my password?',
      awayFromDm: { answerText: 'Go to the password portal.' },
    });
    expect(sections(call.blocks)).toEqual([
      '<!subteam^S0ONCALL>\n<@U0JANE> asks for a person to help with a question asked in a direct message with the app:',
      '>How do I reset my password?',
      'The robot answered:',
      '>Go to the password portal.',
    ]);
  });

  it('stays within Block Kit limits with many people, a long question and a long answer, never cutting a mention', () => {
    const many: People = {
      users: Array.from({ length: 300 }, (_, index) => `U${String(index).padStart(8, '0')}`),
      groups: ['S0ONCALL'],
    };
    const call = renderCall({
      locale: 'en',
      targets: many,
      askerUserId: 'U0JANE',
      clickerUserId: 'U0SAM',
      question: 'q'.repeat(5_000),
      awayFromDm: { answerText: 'a & b '.repeat(2_000) },
    });
    for (const text of sections(call.blocks)) expect(text.length).toBeLessThanOrEqual(SECTION_TEXT_MAX);
    expect(call.text.length).toBeLessThanOrEqual(FALLBACK_TEXT_MAX);
    const lead = sections(call.blocks)[0] ?? '';
    expect(lead).toMatch(
      /^<!subteam\^S0ONCALL> (?:<@U\d{8}> )+<@U\d{8}>…\n<@U0JANE> asks for a person to help with a question asked in a direct message with the app:$/,
    );
  });
});

describe('renderEscalatedLine in place of the button', () => {
  it('says who called whom, groups first, and when, as a Slack date each reader sees in their own zone', () => {
    const called = { users: ['U0ONCALL'], groups: ['S0ITDESK'] };
    const line = renderEscalatedLine('en', 'U0SAM', new Date('2026-03-04T09:30:12Z'), called);
    expect(line).toEqual({
      type: 'context',
      block_id: ESCALATE_BLOCK_ID,
      elements: [
        {
          type: 'mrkdwn',
          text: '<@U0SAM> called <!subteam^S0ITDESK>, <@U0ONCALL> · <!date^1772616612^{date_short_pretty} {time}|4 Mar 2026, 09:30 UTC>',
        },
      ],
    });
    const inChinese = renderEscalatedLine('zh-CN', 'U0SAM', new Date(0), { users: [], groups: ['S0ITDESK'] });
    expect(inChinese.elements[0]).toMatchObject({
      text: expect.stringMatching(/^<@U0SAM> 已呼叫 <!subteam\^S0ITDESK> · /),
    });
  });

  it('replaces the button and keeps the rest of the answer', () => {
    const [answer] = renderReply(
      {
        kind: 'answer',
        contextKey: 'ctx-1',
        answerHtml: 'Go to the portal.',
        stripe: undefined,
        suggestions: [],
        rateable: true,
        matched: true,
        clickedBy: undefined,
        demo: false,
        locale: 'en',
      },
      { escalate: true },
    );
    const line = renderEscalatedLine('en', 'U0SAM', new Date(0), { users: ['U0ONCALL'], groups: [] });
    const blocks = replaceBlock(answer?.blocks, ESCALATE_BLOCK_ID, line);
    expect(blocks.map((block) => block.block_id ?? block.type)).toEqual([
      'section',
      'rating',
      ESCALATE_BLOCK_ID,
    ]);
    expect(blocks.at(-1)).toBe(line);
  });
});
