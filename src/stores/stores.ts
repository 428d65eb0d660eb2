// What a set of stores is, whichever way it stores, and the namespaces every engine declares alike.
import { z } from 'zod';
import type { ContextStore, RatingStore } from '../conversation/stores.js';
import type { TokenCache } from '../platform/access-token.js';
import {
  type EntrySnapshotStore,
  QUESTION_LINK_RETENTION_SECONDS,
  type QuestionLinkStore,
  REVIEW_RETENTION_SECONDS,
  type ReviewCardStore,
  type WorkspaceScoped,
} from '../review/stores.js';
import {
  DAILY_COUNTS_KEPT_SECONDS,
  QUESTION_FIELDS,
  type QuestionField,
  RATING_FIELDS,
  type RatingField,
} from '../service-desk/daily-counts.js';
import { contextChannelSchema, PANEL_TITLE_KEY } from '../slack/assistant/stores.js';
import type { ChannelSettingsStore } from '../slack/channels/stores.js';
import type { OnceStore, TickClaims, UsergroupMembers } from '../slack/handling/stores.js';
import { workspaceKey } from '../slack/handling/workspace.js';
import { type BatchedDailyCounts, dailyCountSchema, dailyCountStore } from './daily-counts.js';
import { claimsOnly, type Forgettable, type Namespace, type Namespaces } from './namespace.js';
import type { RedisServer } from './redis-client.js';
import type { StoreLogger } from './redis-connection.js';
import { entrySnapshotSchema, questionLinkSchema, usergroupMembersSchema } from './review-schemas.js';
import { scopedKey } from './review-workspaces.js';
import type { SqliteLayers } from './sqlite-database.js';

export type StoreChoice =
  | { kind: 'memory' }
  | { kind: 'sqlite'; path: string; layers?: SqliteLayers }
  | { kind: 'redis'; server: RedisServer; keyPrefix: string; commandTimeoutMs?: number };

export interface Stores extends DeclaredNamespaces {
  /** A namespace of this engine's: a room declares its own storage in one line. */
  namespace: Namespaces;
  contexts: ContextStore;
  /** With Redis each process also remembers its own, so a claim is still decided while Redis is down. */
  deliveries: OnceStore;
  /** Apart from deliveries, which would evict the threads in one bounded store. */
  threads: OnceStore;
  ratings: RatingStore;
  reviewCards: ReviewCardStore;
  channelSettings: ChannelSettingsStore & Forgettable;
  /**
   * Removes what is kept under a workspace's own keys (an uninstall), a bounded step at a time; how
   * many entries went. What is not kept under them expires by itself (docs/storage.md).
   */
  forgetWorkspace(workspace: string): Promise<number>;
  /** Undefined in memory: one process, nothing to share. */
  tokenCache: TokenCache | undefined;
  /** What one replica changed, told to every other (Redis pub/sub); absent where the store is one process's. */
  changes?: ChangeNotices;
  kind: 'memory' | 'redis' | 'sqlite';
  /** For the start-up line. */
  location: string;
  ping(): Promise<boolean>;
  /** With Redis the stores share one connection, so none closes alone. */
  close(): Promise<void>;
}

/** Changes told across replicas: best effort, so a reader's cache still expires on its own. */
interface ChangeNotices {
  publish(topic: string, key: string): Promise<void>;
  subscribe(topic: string, onKey: (key: string) => void): Promise<void>;
}

/** The plain stores: a namespace each, the same names in every engine (a Redis key's segment, a SQLite `ns`). */
export interface DeclaredNamespaces {
  /** Once per fleet, without the deliveries' in-process fallback: every replica would post the tick. */
  ticks: TickClaims;
  names: Namespace<string>;
  operators: Namespace<UsergroupMembers>;
  /** For whichever replica answers the panel's next question. */
  assistantContexts: Namespace<string>;
  /** One call for a person per answer, whoever clicks on whichever replica; refused while the engine is down. */
  escalations: Namespace<never>;
  /** An assistant thread is titled once, on whichever replica its first question arrives. */
  panelTitles: Namespace<never>;
  /** What an edit is prefilled from, by docId; installed in many workspaces, by workspace and docId. */
  entrySnapshots: EntrySnapshotStore & WorkspaceScoped<EntrySnapshotStore> & Forgettable;
  questionLinks: QuestionLinkStore & WorkspaceScoped<QuestionLinkStore> & Forgettable;
  /** 👍/👎 a day per workspace, for the statistics charts. */
  dailyRatings: BatchedDailyCounts<RatingField>;
  /** Questions asked and left unanswered a day per workspace, for the statistics charts. */
  dailyQuestions: BatchedDailyCounts<QuestionField>;
}

/** `ttlSeconds`: an answer context's lifetime, the default of the namespaces whose writes give none. */
export function declaredNamespaces(
  namespace: Namespaces,
  ttlSeconds: number,
  /** Told of daily counts that could not be written. */
  onCountsLost?: (error: unknown) => void,
): DeclaredNamespaces {
  const snapshots = namespace('kb-entry', {
    schema: entrySnapshotSchema,
    ttlSeconds: REVIEW_RETENTION_SECONDS,
  });
  const links = namespace('q-link', {
    schema: questionLinkSchema,
    ttlSeconds: QUESTION_LINK_RETENTION_SECONDS,
  });
  // Installed in one workspace, under the keys they always had; in many, under each workspace's own.
  const snapshotsOf = (workspace: string | undefined): EntrySnapshotStore => {
    const key = (docId: string) => scopedKey(workspace, docId);
    return {
      put: (snapshot) => snapshots.set(key(snapshot.docId), snapshot),
      get: (docId) => snapshots.get(key(docId)),
    };
  };
  const linksOf = (workspace: string | undefined): QuestionLinkStore => {
    const key = (linkKey: string) => scopedKey(workspace, linkKey);
    return {
      put: (linkKey, link) => links.set(key(linkKey), link),
      get: (linkKey) => links.get(key(linkKey)),
      delete: (linkKey) => links.delete(key(linkKey)),
    };
  };
  return {
    entrySnapshots: {
      ...snapshotsOf(undefined),
      of: snapshotsOf,
      deleteStartingWith: (prefix) => snapshots.deleteStartingWith(prefix),
    },
    questionLinks: {
      ...linksOf(undefined),
      of: linksOf,
      deleteStartingWith: (prefix) => links.deleteStartingWith(prefix),
    },
    ticks: namespace('tick', { schema: claimsOnly, ttlSeconds }),
    names: namespace('name', { schema: z.string(), ttlSeconds }),
    operators: namespace('operators', { schema: usergroupMembersSchema, ttlSeconds }),
    assistantContexts: namespace('assistant-context', { schema: contextChannelSchema, ttlSeconds }),
    escalations: namespace('escalation', { schema: claimsOnly, ttlSeconds }),
    panelTitles: namespace('panel-title', { schema: claimsOnly, ttlSeconds }),
    dailyRatings: dailyCountStore(
      namespace('rating-day', { schema: dailyCountSchema, ttlSeconds: DAILY_COUNTS_KEPT_SECONDS }),
      RATING_FIELDS,
      onCountsLost,
    ),
    dailyQuestions: dailyCountStore(
      namespace('question-day', { schema: dailyCountSchema, ttlSeconds: DAILY_COUNTS_KEPT_SECONDS }),
      QUESTION_FIELDS,
      onCountsLost,
    ),
  };
}

/** A warning for daily counts that could not be written; they are lost, the answers are not. */
export function countsLost(logger: StoreLogger | undefined): ((error: unknown) => void) | undefined {
  return logger && ((error) => logger.warn({ err: error }, 'daily counts not written; they are lost'));
}

/** What an engine makes of its own; `withDeclaredNamespaces` adds the rest alike on every engine. */
export type EngineStores = Omit<Stores, keyof DeclaredNamespaces | 'forgetWorkspace'>;

/**
 * An engine's stores with the declared namespaces, `forgetWorkspace`, and a close that first writes
 * the day's counts this process has not written.
 */
export function withDeclaredNamespaces<Engine extends EngineStores>(
  engine: Engine,
  /** An answer context's lifetime, the default of the namespaces whose writes give none. */
  ttlSeconds: number,
  /** Told of daily counts that could not be written. */
  onCountsLost?: (error: unknown) => void,
): Engine & Stores {
  const plain = declaredNamespaces(engine.namespace, ttlSeconds, onCountsLost);
  return {
    ...engine,
    ...plain,
    forgetWorkspace: (workspace: string) => forgetWorkspaceIn({ ...engine, ...plain }, workspace),
    close: async () => {
      // Awaited only when something is left to write, so a close with nothing counted stays immediate.
      const counts = [plain.dailyRatings, plain.dailyQuestions].filter((store) => store.unwritten);
      if (counts.length > 0) await Promise.all(counts.map((store) => store.flush()));
      await engine.close();
    },
  };
}

/** Slack's ids (T…, E…), or `unknown`: no separator and no pattern character of any engine. */
const WORKSPACE_ID = /^[A-Za-z0-9]{1,64}$/;

/**
 * `Stores.forgetWorkspace` on any engine: every store holding keys of `workspaceKey(workspace, …)`,
 * by that prefix with its colon (`T1:` never reaches `T10:`).
 */
export async function forgetWorkspaceIn(
  stores: DeclaredNamespaces & Pick<Stores, 'channelSettings' | 'reviewCards'>,
  workspace: string,
): Promise<number> {
  if (!WORKSPACE_ID.test(workspace))
    throw new RangeError(`a workspace id is letters and digits, got ${JSON.stringify(workspace)}`);
  const own = workspaceKey(workspace, '');
  const held = [
    [stores.channelSettings, own],
    [stores.names, own],
    [stores.operators, own],
    [stores.assistantContexts, own],
    [stores.panelTitles, `${PANEL_TITLE_KEY}${own}`],
    [stores.entrySnapshots, own],
    [stores.questionLinks, own],
    [stores.dailyRatings, own],
    [stores.dailyQuestions, own],
  ] as const;
  let forgotten = 0;
  for (const [store, prefix] of held) forgotten += await store.deleteStartingWith(prefix);
  return forgotten + (await stores.reviewCards.forget(workspace));
}
