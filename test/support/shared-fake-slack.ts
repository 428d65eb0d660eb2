// One fake Slack Web API for a whole test file, reset before each test, with a client that talks to it.
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeSlackApi, startFakeSlackApi } from './fake-slack-api.js';

export interface SharedFakeSlack {
  readonly api: FakeSlackApi;
  readonly client: webApi.WebClient;
}

/** Call at a test file's top level; read `api` and `client` inside tests only. */
export function sharedFakeSlack(): SharedFakeSlack {
  let started: SharedFakeSlack | undefined;
  beforeAll(async () => {
    const api = await startFakeSlackApi();
    const client = new webApi.WebClient('xoxb-test', { slackApiUrl: api.url, retryConfig: { retries: 0 } });
    started = { api, client };
  });
  afterAll(() => started?.api.close());
  beforeEach(() => started?.api.reset());
  const current = (): SharedFakeSlack => {
    if (!started) throw new Error('the shared fake Slack is read outside a test');
    return started;
  };
  return {
    get api() {
      return current().api;
    },
    get client() {
      return current().client;
    },
  };
}
