// A channel set to one language (lang:zh) speaks it in every word of the app's message, whatever the
// asker's own language and whatever language the robot wrote its lead-in in. Real gateway over HTTP.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeChannelSettings } from '../../../src/stores/sqlite.js';
import { blocksOf, buttonsOf, textsIn, useGatewayHarness } from '../../support/gateway-harness.js';
import { appMention, IDS } from '../../support/slack-payloads.js';

const CHINESE_DESK = 'C0ZHDESK';
const ONCALL = 'S0ZHONCALL';

const folder = mkdtempSync(join(tmpdir(), 'channel-language-'));
const statePath = join(folder, 'gateway.sqlite');
await writeChannelSettings(
  statePath,
  { [CHINESE_DESK]: { lang: 'zh', robot: 2, escalate: { users: [], groups: [ONCALL] } } },
  'U0OPERATOR',
);

const harness = useGatewayHarness({ env: { STATE_PATH: statePath, PLACEHOLDER_DELAY_MS: '10000' } });

afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('a channel with lang:zh', () => {
  it('says no answer, Get a person and the suggestions’ lead-in in Chinese to an English speaker, once', async () => {
    const h = harness();
    const mention = appMention({
      channel: CHINESE_DESK,
      user: IDS.user,
      text: `<@${IDS.botUser}> is it lunch time yet?`,
    });
    expect((await h.sendEvent(mention)).status).toBe(200);
    const answer = await h.slack.waitForCall(
      'chat.postMessage',
      (call) => call.body.channel === CHINESE_DESK && call.body.thread_ts === mention.ts,
    );
    const words = textsIn(blocksOf(answer).filter((block) => block.type === 'section'));
    expect(words).toContain('知识库里没有这个问题的答案，可以找人工帮忙。');
    expect(words).toContain('你可能还想问：');
    expect(words).not.toMatch(/You may|Sorry/);
    expect(buttonsOf(answer)[0]?.text).toBe('找人工');
  });
});
