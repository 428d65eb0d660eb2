// users.info is rate limited (Tier 4) and slows every answer: one lookup per user, not per question.
import { describe, expect, it } from 'vitest';
import { askByMention, buttonsOf, useGatewayHarness } from '../../support/gateway-harness.js';

describe('the asker’s name and locale', () => {
  const harness = useGatewayHarness();

  it('are looked up with users.info once across two questions from the same user', async () => {
    const h = harness();
    // A user no other test has asked as: the gateway's cache outlives the fakes' reset.
    const user = 'U0CACHE01';
    h.slack.setUser(user, { displayName: 'Casey Cache', locale: 'zh-CN' });
    const asksBefore = h.robotAsks().length;

    await askByMention(h, 'How do I reset my password?', { user });
    const second = await askByMention(h, 'VPN', { user });

    expect(h.slack.calls('users.info').filter((call) => call.body.user === user)).toHaveLength(1);
    // The cached name and locale are still used: the robot hears the name, the user reads Chinese.
    expect(
      h
        .robotAsks()
        .slice(asksBefore)
        .map((ask) => ask.uname),
    ).toEqual(['Casey Cache', 'Casey Cache']);
    expect(buttonsOf(second.answer).map((button) => button.text)).toContain('👍 有帮助');
  });
});
