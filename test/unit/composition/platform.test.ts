// Which service groups `/cs agents` offers: AGENT_GROUPS when set; in demo mode without it, the
// simulator's own, so the demo's groups can be found (the platform has no call that lists them).
import { describe, expect, it } from 'vitest';
import { choosePlatform } from '../../../src/composition/platform.js';
import { parseEnv } from '../../../src/config/env.js';
import { createLogger } from '../../../src/logging/logger.js';
import { logSink } from '../../support/log-sink.js';

const slack = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 'secret' };

async function groupsWith(variables: Record<string, string>) {
  const parsed = parseEnv({ ...slack, ...variables });
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const choice = await choosePlatform(parsed.env, {
    timeouts: { connectMs: 1000, headersMs: 1000, bodyMs: 1000 },
    tokenCache: undefined,
    logger: createLogger({ level: 'silent', destination: logSink().destination }),
  });
  try {
    return { demo: choice.demo, groups: choice.agentGroups };
  } finally {
    await choice.close();
  }
}

describe('the service groups people can name', () => {
  it('are the simulator’s in demo mode when AGENT_GROUPS is unset', async () => {
    const { demo, groups } = await groupsWith({});
    expect(demo).toBe(true);
    expect(groups).toEqual([
      { id: 'g-it', name: 'IT Service Desk' },
      { id: 'g-hr', name: 'HR Service' },
      { id: 'g-finance', name: 'Finance Service' },
      { id: 'g-facilities', name: '行政服务' },
    ]);
  });

  it('are AGENT_GROUPS when set, in demo mode or not, and none with a platform and no AGENT_GROUPS', async () => {
    expect((await groupsWith({ AGENT_GROUPS: 'g-x=Desk X' })).groups).toEqual([
      { id: 'g-x', name: 'Desk X' },
    ]);
    const configured = { CS_OPEN_URL: 'https://open.example.com', CS_SYS_NUM: 'acme', CS_ACCESS_TOKEN: 't' };
    expect((await groupsWith(configured)).groups).toEqual([]);
    expect((await groupsWith({ ...configured, AGENT_GROUPS: 'g-y=Desk Y' })).groups).toEqual([
      { id: 'g-y', name: 'Desk Y' },
    ]);
  });
});
