// The Home tab, published whenever it is opened; operators also see figures, cards and channels.
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import { escapeMrkdwn } from '../../answer-html/mrkdwn.js';
import { errorFields } from '../../logging/error-fields.js';
import type { ReviewCard } from '../../review/types.js';
import { EXPIRED, within } from '../../util/deadline.js';
import { type ClickArgs, questionClickListener } from '../handling/click.js';
import { type BoltRequest, beginHandling, type Handling } from '../handling/handling.js';
import { section } from '../kit/elements.js';
import type { RoomKit, WorkspaceSetupSources } from '../kit/room-kit.js';
import type { SetupStatus } from '../setup/views.js';
import { t } from './messages.js';
import type { HomePieces } from './pieces.js';
import {
  HOME_CARDS_LISTED,
  type HomeCard,
  type HomeOperatorPart,
  type HomeReview,
  homeExamples,
  renderHome,
} from './views.js';

type HomeDeps = Pick<
  RoomKit & HomePieces,
  'logger' | 'onEvent' | 'inFlight' | 'users' | 'responder' | 'review' | 'access' | 'home' | 'channels'
>;

const slackId = z.string().min(1).max(64);

const appHomeOpenedSchema = z.object({
  type: z.literal('app_home_opened'),
  user: slackId,
  tab: z.string().max(32).optional(),
});

export type HomeArgs = BoltRequest & { event: unknown };

/** Links never change, so they are kept. */
const PERMALINKS_MAX = 1_000;
/** Without the links in time the cards are listed as text. */
const PERMALINK_WAIT_MS = 2_000;

/** Publishes a person's Home as it is now: on opening it, and after an operator changed what it shows. */
export type HomePublisher = (handling: Handling, userId: string) => Promise<void>;

export function homePublisher(deps: HomeDeps, command: string): HomePublisher {
  const permalinks = new LRUCache<string, string>({ max: PERMALINKS_MAX });
  return async (handling, userId) => {
    const { locale, timeZone } = await handling.person(userId);
    const operator = await isOperator(deps, handling, userId);
    deps.onEvent('app_home_opened', operator ? 'operator' : 'user');
    const view = renderHome({
      locale,
      timeZone,
      examples: homeExamples(deps.home.examples, locale),
      operator: operator ? await operatorPart(deps, handling, command, permalinks) : undefined,
    });
    const published = await deps.responder.call(handling, 'views.publish', undefined, { userId }, () =>
      handling.client.views.publish({ user_id: userId, view }),
    );
    deps.home.onPublish(published ? 'published' : 'failed');
  };
}

export function appHomeListener(deps: HomeDeps, publish: HomePublisher): (args: HomeArgs) => Promise<void> {
  return ({ event, context, client }) => {
    const parsed = appHomeOpenedSchema.safeParse(event);
    if (!parsed.success) {
      deps.onEvent('app_home_opened', 'malformed');
      deps.logger.warn(
        { issues: parsed.error.issues.length },
        'ignored an app_home_opened of unexpected shape',
      );
      return Promise.resolve();
    }
    if (parsed.data.tab !== undefined && parsed.data.tab !== 'home') {
      deps.onEvent('app_home_opened', 'other_tab');
      return Promise.resolve();
    }
    const handling = beginHandling({ client, context }, deps);
    return deps.inFlight.track(handling, publish(handling, parsed.data.user), 'home tab handling failed');
  };
}

/** When that cannot be told, they do not. */
async function isOperator(deps: HomeDeps, handling: Handling, userId: string): Promise<boolean> {
  try {
    return (
      (await deps.access.operators.check(handling.client, handling.teamId, userId, handling.logger)).kind ===
      'operator'
    );
  } catch (error) {
    handling.logger.warn(
      errorFields(error),
      'operator check failed; home tab shown without the operator part',
    );
    return false;
  }
}

async function operatorPart(
  deps: HomeDeps,
  handling: Handling,
  command: string,
  permalinks: LRUCache<string, string>,
): Promise<HomeOperatorPart> {
  const { teamId } = handling;
  const [figures, review, setup] = await Promise.all([
    deps.home.figures.figures(teamId, { requestId: handling.requestId }),
    reviewPart(deps, handling, permalinks),
    setupPart(deps.home.setups, handling),
  ]);
  if (figures.kind === 'unavailable') {
    handling.logger.warn({ teamId, reason: figures.reason }, 'home tab figures unavailable');
  }
  return { figures, review, channels: deps.channels.list(teamId), command, ...(setup && { setup }) };
}

/** Undefined when installed in one workspace: its account is the environment's, set where it runs. */
async function setupPart(
  setups: WorkspaceSetupSources | undefined,
  handling: Handling,
): Promise<SetupStatus | undefined> {
  if (!setups) return undefined;
  try {
    const setup = await setups.store.get(handling.teamId);
    if (setup) return { kind: 'own', setup };
    return { kind: setups.hasDefault ? 'default' : 'none' };
  } catch (error) {
    handling.logger.warn(errorFields(error), 'workspace set-up not read for the home tab');
    return { kind: 'unavailable' };
  }
}

async function reviewPart(
  deps: HomeDeps,
  handling: Handling,
  permalinks: LRUCache<string, string>,
): Promise<HomeReview> {
  try {
    // The cards of the workspace whose Home it is: never another's.
    const { desk } = await deps.review.of(handling.teamId);
    // Installed in many workspaces, the channel is each one's to name in its set-up.
    if (!desk.cardsEnabled) return { kind: deps.home.setups ? 'no_channel' : 'off' };
    const waiting = await desk.waiting(HOME_CARDS_LISTED);
    if (!waiting) return { kind: 'off' };
    const listed = (cards: ReviewCard[]): Promise<HomeCard[]> =>
      Promise.all(
        cards.map(async (card) => ({
          text: card.kind === 'disliked' ? (card.entryTitle ?? card.question) : card.question,
          count: card.count,
          link: card.posted ? await permalink(deps, handling, card.posted, permalinks) : undefined,
        })),
      );
    const [disliked, unanswered] = await Promise.all([
      listed(waiting.disliked.cards),
      listed(waiting.unanswered.cards),
    ]);
    return {
      kind: 'cards',
      disliked: { total: waiting.disliked.total, cards: disliked },
      unanswered: { total: waiting.unanswered.total, cards: unanswered },
    };
  } catch (error) {
    handling.logger.warn(errorFields(error), 'review cards not read for the home tab');
    return { kind: 'unavailable' };
  }
}

async function permalink(
  deps: Pick<HomeDeps, 'responder'>,
  handling: Handling,
  posted: NonNullable<ReviewCard['posted']>,
  permalinks: LRUCache<string, string>,
): Promise<string | undefined> {
  const key = `${posted.conversationId}:${posted.messageId}`;
  const known = permalinks.get(key);
  if (known) return known;
  const asking = deps.responder.permalink(handling, posted.conversationId, posted.messageId);
  const link = await within(asking, PERMALINK_WAIT_MS);
  if (link === EXPIRED || link === undefined) return undefined;
  permalinks.set(key, link);
  return link;
}

type ExampleDeps = Pick<
  RoomKit,
  'logger' | 'onEvent' | 'inFlight' | 'turns' | 'answerer' | 'users' | 'responder' | 'channels'
>;

/** A longer value is not one of the Home's buttons. */
const EXAMPLE_QUESTION_MAX = 150;

const exampleQuestionSchema = z
  .string()
  .transform((text) => text.replace(/\s+/g, ' ').trim())
  .pipe(
    z
      .string()
      .min(1)
      .refine((text) => [...text].length <= EXAMPLE_QUESTION_MAX),
  );

/** Asked in the clicker's DM with the app, answered there. */
export function homeExampleClickListener(deps: ExampleDeps): (args: ClickArgs) => Promise<void> {
  return questionClickListener(deps, 'home example handling failed', async (handling, click) => {
    const question = exampleQuestionSchema.safeParse(click.value);
    if (!question.success) {
      deps.onEvent('home_example', 'malformed');
      handling.logger.warn({}, 'ignored a home example click with a malformed value');
      return;
    }
    const channel = await deps.responder.directMessage(handling, click.userId);
    if (!channel) {
      deps.onEvent('home_example', 'no_dm');
      return;
    }
    const { locale } = await handling.person(click.userId);
    const target = { channel, threadTs: undefined };
    // The DM shows what was asked, so the answer below it reads as a conversation.
    const asked = t(locale, 'home_asked', { question: escapeMrkdwn(question.data) });
    await deps.responder.post(handling, target, { text: asked, blocks: [section(asked)] });
    deps.onEvent('home_example', 'question');
    await deps.answerer.answer(handling, {
      userId: click.userId,
      text: question.data,
      target,
      placement: await deps.channels.at({ teamId: handling.teamId, channelId: channel }),
    });
  });
}
