import { ErrorCode } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import { OnceStates } from '../../../../src/slack/install/install-states.js';

const OPTIONS = { scopes: ['chat:write'] };

function states(secret = 'state-secret') {
  const claimed = new Set<string>();
  const claims = {
    claim: async (key: string) => {
      if (claimed.has(key)) return false;
      claimed.add(key);
      return true;
    },
  };
  return new OnceStates(secret, claims, OPTIONS);
}

async function refusal(promise: Promise<unknown>): Promise<{ code: unknown; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return { code: Reflect.get(error, 'code'), message: error.message };
  }
  throw new Error('the state was accepted');
}

describe('OnceStates', () => {
  const issued = new Date('2026-11-28T10:00:00Z');

  it('takes back a state it made, within ten minutes, with the install options it was made for', async () => {
    const store = states();
    const state = await store.generateStateParam(OPTIONS, issued);
    await expect(store.verifyStateParam(new Date(issued.getTime() + 9 * 60_000), state)).resolves.toEqual(
      OPTIONS,
    );
  });

  it('refuses a state used once already, on this or any replica sharing the claims', async () => {
    const store = states();
    const state = await store.generateStateParam(OPTIONS, issued);
    await store.verifyStateParam(issued, state);
    expect(await refusal(store.verifyStateParam(issued, state))).toEqual({
      code: ErrorCode.InvalidStateError,
      message: 'the state was already used',
    });
  });

  it('refuses a state older than ten minutes', async () => {
    const store = states();
    const state = await store.generateStateParam(OPTIONS, issued);
    expect((await refusal(store.verifyStateParam(new Date(issued.getTime() + 601_000), state))).message).toBe(
      'the state has expired',
    );
  });

  it.each([
    ['signed with another secret', async () => states('other-secret').generateStateParam(OPTIONS, issued)],
    [
      'with its time changed',
      async () => (await states().generateStateParam(OPTIONS, issued)).replace(/\.\d+\./, '.1.'),
    ],
    ['cut short', async () => (await states().generateStateParam(OPTIONS, issued)).slice(0, -3)],
    ['made up', async () => 'abc.123.def'],
    ['empty', async () => ''],
  ])('refuses a state %s', async (_name, make) => {
    const state = await make();
    expect(await refusal(states().verifyStateParam(issued, state))).toEqual({
      code: ErrorCode.InvalidStateError,
      message: 'the state is not one this app made',
    });
  });
});
