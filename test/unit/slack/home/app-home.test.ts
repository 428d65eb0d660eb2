// The Home tab's listener called directly, with dummy Bolt arguments: who sees what when a piece
// behind the Home fails, and what is left alone.
import { describe, expect, it } from 'vitest';
import type { HomeFigures } from '../../../../src/service-desk/home-figures.js';
import { appHomeListener, type HomeArgs, homePublisher } from '../../../../src/slack/home/app-home.js';
import { type Fakes, fakes, type RoomDeps } from '../../../support/listener-fakes.js';
import { IDS } from '../../../support/slack-payloads.js';

function homeArgs(f: Fakes, event: unknown): HomeArgs {
  return { event, context: { teamId: IDS.team }, client: f.client };
}

const opened = (tab?: string) => ({
  type: 'app_home_opened',
  user: IDS.user,
  channel: IDS.dm,
  ...(tab === undefined ? {} : { tab }),
});

/** The text of the view published, as one string. */
function published(f: Fakes): string[] {
  return f.slack
    .filter((call) => call.method === 'views.publish')
    .map((call) => JSON.stringify(call.options));
}

/** The fakes with an operator and a review loop whose pieces behave as told. */
function withOperator(
  f: Fakes,
  options: { check?: RoomDeps['access']['operators']['check']; waiting?: () => Promise<never> },
): RoomDeps {
  const figures: HomeFigures = { kind: 'unavailable', reason: 'unreachable', at: 0 };
  return {
    ...f.deps,
    review: {
      ...f.deps.review,
      of: async (workspace) => {
        const review = await f.deps.review.of(workspace);
        return {
          ...review,
          desk: {
            ...review.desk,
            cardsEnabled: true,
            waiting: options.waiting ?? (() => Promise.reject(new Error('store down'))),
          },
        };
      },
    },
    access: {
      ...f.deps.access,
      operators: { ...f.deps.access.operators, check: options.check ?? (async () => ({ kind: 'operator' })) },
    },
    home: { ...f.deps.home, figures: { figures: async () => figures } },
  };
}

describe('appHomeListener', () => {
  it('publishes for the Home tab (and for an event that names no tab), never for the Messages tab', async () => {
    const f = fakes();
    const listener = appHomeListener(f.deps, homePublisher(f.deps, '/cs'));
    await listener(homeArgs(f, opened('messages')));
    expect(published(f)).toEqual([]);
    expect(f.events).toContain('app_home_opened:other_tab');
    await listener(homeArgs(f, opened('home')));
    await listener(homeArgs(f, opened()));
    expect(published(f)).toHaveLength(2);
    expect(f.events.filter((event) => event === 'app_home_opened:user')).toHaveLength(2);
  });

  it('shows the plain Home when the operator check fails: figures and cards are for operators it can tell', async () => {
    const f = fakes();
    let figuresAsked = false;
    const deps = withOperator(f, { check: () => Promise.reject(new Error('Slack down')) });
    const checked = {
      ...deps,
      home: {
        ...deps.home,
        figures: {
          figures: async () => {
            figuresAsked = true;
            return { kind: 'unavailable' as const, reason: 'unreachable' as const, at: 0 };
          },
        },
      },
    };
    const listener = appHomeListener(checked, homePublisher(checked, '/cs'));
    await listener(homeArgs(f, opened('home')));
    const [view] = published(f);
    expect(view).toContain('How to ask');
    expect(view).not.toContain('For operators');
    expect(figuresAsked).toBe(false);
  });

  it('tells an operator the cards could not be read, and still shows the figures line and the buttons', async () => {
    const f = fakes();
    await appHomeListener(
      withOperator(f, {}),
      homePublisher(withOperator(f, {}), '/cs'),
    )(homeArgs(f, opened('home')));
    const [view] = published(f);
    expect(view).toContain('The review cards could not be read right now');
    expect(view).toContain('The figures are unavailable right now');
    expect(view).toContain('home_open_tickets');
    expect(f.logs.some((record) => record.msg === 'review cards not read for the home tab')).toBe(true);
  });

  it('ignores an event of the wrong shape, counting it, without a Slack call', async () => {
    const f = fakes();
    const listener = appHomeListener(f.deps, homePublisher(f.deps, '/cs'));
    for (const event of [null, 'x', { type: 'app_home_opened' }, { type: 'message', user: IDS.user }]) {
      await listener(homeArgs(f, event));
    }
    expect(f.slack).toEqual([]);
    expect(f.events.filter((event) => event === 'app_home_opened:malformed')).toHaveLength(4);
  });
});
