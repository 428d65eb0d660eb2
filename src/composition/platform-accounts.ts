// Installed in many workspaces, each asks through the platform account its operators set up, else the
// environment's; one client per account, kept while used, its fetched token shared (sealed) by replicas.
import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { z } from 'zod';
import type { Env } from '../config/env.js';
import {
  type AccountLookup,
  type PlatformAccount,
  type PlatformAccounts,
  singleAccount,
} from '../conversation/conversation.js';
import {
  type CachedToken,
  FetchedTokenProvider,
  isPlatformError,
  PlatformClient,
  type PlatformClientOptions,
  platformFailureKind,
  type QuestionPacing,
  StaticTokenProvider,
  TOKEN_REJECTED_CODE,
  type TokenCache,
} from '../platform/index.js';
import type { AgentsApi } from '../service-desk/agents.js';
import { NotSetUpError } from '../service-desk/platform-failure.js';
import type { StatisticsApi } from '../service-desk/statistics.js';
import type { TicketsApi } from '../service-desk/tickets.js';
import type { Installations } from '../slack/install/installations.js';
import type { WorkspacePlatformAccount, WorkspaceSetups } from '../slack/install/workspace-setups.js';
import type { AccountCheck, WorkspaceSetupSources } from '../slack/kit/room-kit.js';
import type { Namespace } from '../stores/namespace.js';
import { type Sealer, sealedJson } from '../stores/sealing.js';
import type { Stores } from '../stores/stores.js';
import { todayIn } from '../util/time-zone.js';
import type { PlatformChoice } from './platform.js';

/** Which platform account each workspace asks through, and where its operators set up their own. */
export interface Workspaces {
  accounts: PlatformAccounts<PlatformClient>;
  /** The operators' desk and Home figures of a workspace. */
  platformOf: (workspace: string) => DeskPlatform;
  /** Installed in many workspaces: each one's set-up, and the check an account passes before it is kept. */
  setups: WorkspaceSetupSources | undefined;
  close(): Promise<void>;
}

/** Installed in one workspace, the environment's account is everybody's; in many, each workspace's own first. */
export function composeAccounts(
  env: Env,
  deps: {
    platform: PlatformClient;
    platformChoice: Pick<PlatformChoice, 'sysNum' | 'demo'>;
    /** What `slackAuth` made: all three when installed in many workspaces. */
    authorized: {
      sealer?: Sealer | undefined;
      setups?: WorkspaceSetups | undefined;
      installations?: Pick<Installations, 'installerOf'> | undefined;
    };
    /** What every platform client of the gateway shares (timeouts, retries, logger, metrics). */
    client: AccountClientOptions['client'];
    stores: Pick<Stores, 'namespace'>;
    /** PLATFORM_QUESTION_RATE's pacing of one account; undefined when off. */
    pacingFor: (account: { openUrl: string; sysNum: string }) => QuestionPacing | undefined;
  },
): Workspaces {
  const { platform, platformChoice, authorized } = deps;
  const environments = { robot: platform, sysNum: platformChoice.sysNum, demo: platformChoice.demo };
  const { sealer, setups, installations } = authorized;
  if (!sealer || !setups) {
    return {
      accounts: singleAccount(environments),
      platformOf: () => platform,
      setups: undefined,
      close: async () => {},
    };
  }
  const clients = new AccountClients({
    client: deps.client,
    expireHours: env.CS_TOKEN_EXPIRE_HOURS,
    pacingFor: deps.pacingFor,
    tokens: deps.stores.namespace('platform-tokens', {
      schema: z.string(),
      ttlSeconds: TOKEN_TTL_SECONDS,
    }),
    sealer,
  });
  const accounts = workspaceAccounts({
    // Installed in many workspaces, the demo knowledge base answers none: each sets up its own.
    fallback: platformChoice.demo ? undefined : { ...environments, robotFlag: env.CS_ROBOT_FLAG },
    robotFlag: env.CS_ROBOT_FLAG,
    setups,
    clients,
    installerOf: async (workspace) => installations?.installerOf(workspace),
  });
  return {
    accounts,
    platformOf: (workspace) => deskPlatformOf(accounts, workspace),
    setups: {
      store: setups,
      check: (account) => clients.check(account),
      hasDefault: !platformChoice.demo,
      digestScheduled: env.DIGEST_SCHEDULE !== undefined,
      reviewDefault: env.REVIEW_CHANNEL_ID !== undefined,
    },
    close: () => clients.close(),
  };
}

/** The longest a fetched token lives (CS_TOKEN_EXPIRE_HOURS at most 24). */
const TOKEN_TTL_SECONDS = 24 * 3600;

/** Clients kept at once: a workspace idle past it makes a new one (and fetches a token) when it asks again. */
const CLIENTS_MAX = 1_000;

const cachedTokenSchema = z.object({ token: z.string().min(1), expiresAt: z.number() });

interface AccountClientOptions {
  /** What every platform client of the gateway shares (timeouts, retries, logger, metrics). */
  client: Omit<PlatformClientOptions, 'openUrl' | 'baseUrl' | 'tokenProvider'>;
  /** CS_TOKEN_EXPIRE_HOURS. */
  expireHours: number;
  pacingFor: (account: { openUrl: string; sysNum: string }) => QuestionPacing | undefined;
  /** Where replicas share each account's fetched token. */
  tokens: Namespace<string>;
  sealer: Sealer;
}

/** Each account's client, made on first use and closed when dropped (or at `close`). */
class AccountClients {
  readonly #options: AccountClientOptions;
  readonly #clients = new LRUCache<string, PlatformClient>({
    max: CLIENTS_MAX,
    // Only a client pushed out by others: `close` closes the rest itself, and waits for them.
    dispose: (client, _key, reason) => {
      if (reason === 'evict') void client.close();
    },
  });

  constructor(options: AccountClientOptions) {
    this.#options = options;
  }

  clientOf(account: WorkspacePlatformAccount): PlatformClient {
    const key = accountKey(account);
    const known = this.#clients.get(key);
    if (known) return known;
    const { credential } = account;
    const { tokens, sealer } = this.#options;
    const pacing = this.#options.pacingFor(account);
    const client = new PlatformClient({
      ...this.#optionsFor(account),
      ...(pacing && { questionPacing: pacing }),
      // A fetched token is shared under `key`, sealed.
      tokenProvider:
        credential.kind === 'static'
          ? new StaticTokenProvider(credential.accessToken)
          : this.#fetchedTokens(account, credential, sealedTokenCache(tokens, sealer, key)),
    });
    this.#clients.set(key, client);
    return client;
  }

  #optionsFor(account: WorkspacePlatformAccount): Omit<PlatformClientOptions, 'tokenProvider'> {
    return { ...this.#options.client, openUrl: account.openUrl, baseUrl: account.openUrl };
  }

  #fetchedTokens(
    account: WorkspacePlatformAccount,
    credential: { appId: string; appKey: string },
    cache?: TokenCache,
  ): FetchedTokenProvider {
    return new FetchedTokenProvider({
      openUrl: account.openUrl,
      appId: credential.appId,
      appKey: credential.appKey,
      expireHours: this.#options.expireHours,
      timeouts: this.#options.client.timeouts,
      ...(cache ? { cache } : {}),
    });
  }

  /** Whether the platform gives this account a token: asked afresh, past any shared one. */
  async check(account: WorkspacePlatformAccount): Promise<AccountCheck> {
    const { credential } = account;
    if (credential.kind === 'static') return this.#checkFixedToken(account, credential.accessToken);
    try {
      await this.#fetchedTokens(account, credential).getToken();
      return 'ok';
    } catch (error) {
      return refusedToken(error) ? 'refused' : 'unreachable';
    }
  }

  /** A fixed token has no token call to ask: a read that changes nothing (today's figures) is asked with it. */
  async #checkFixedToken(account: WorkspacePlatformAccount, accessToken: string): Promise<AccountCheck> {
    const client = new PlatformClient({
      ...this.#optionsFor(account),
      tokenProvider: new StaticTokenProvider(accessToken),
    });
    const today = todayIn('UTC', new Date());
    try {
      await client.getSessionMessageStatistics({ startDate: today, endDate: today });
      return 'ok';
    } catch (error) {
      return fixedTokenCheck(error);
    } finally {
      await client.close();
    }
  }

  async close(): Promise<void> {
    const clients = [...this.#clients.values()];
    this.#clients.clear();
    await Promise.all(clients.map((client) => client.close()));
  }
}

/** The accounts of a gateway installed in many workspaces: a workspace's own, else `fallback`, else none. */
function workspaceAccounts(deps: {
  /** The environment's account (CS_OPEN_URL…): every workspace's until it sets up its own. */
  fallback: PlatformAccount<PlatformClient> | undefined;
  /** CS_ROBOT_FLAG: the robot of a workspace whose set-up names none. */
  robotFlag: number | undefined;
  setups: Pick<WorkspaceSetups, 'get'>;
  clients: Pick<AccountClients, 'clientOf'>;
  /** Whom to ask when it is not set up: who installed the app there. */
  installerOf: (workspace: string) => Promise<string | undefined>;
}): PlatformAccounts<PlatformClient> {
  const fallback: AccountLookup<PlatformClient> | undefined = deps.fallback && {
    kind: 'account',
    account: deps.fallback,
  };
  return {
    async accountOf(workspace) {
      const setup = workspace === undefined ? undefined : await deps.setups.get(workspace);
      if (setup) {
        const robot = deps.clients.clientOf(setup.account);
        const robotFlag = setup.robotFlag ?? deps.robotFlag;
        return { kind: 'account', account: { robot, sysNum: setup.account.sysNum, demo: false, robotFlag } };
      }
      if (fallback) return fallback;
      return {
        kind: 'not_set_up',
        contact: workspace === undefined ? undefined : await deps.installerOf(workspace),
      };
    },
  };
}

/** Only the platform's "token rejected" refuses the token: any other code came from a token it took. */
function fixedTokenCheck(error: unknown): AccountCheck {
  if (!isPlatformError(error)) return 'unreachable';
  if (error.code === 'PLATFORM_CODE') return error.platformCode === TOKEN_REJECTED_CODE ? 'refused' : 'ok';
  return refusedToken(error) ? 'refused' : 'unreachable';
}

/** The platform answered and said no (a wrong app id or key), rather than not answering. */
function refusedToken(error: unknown): boolean {
  if (!isPlatformError(error)) return false;
  const cause = error.code === 'PLATFORM_TOKEN' ? error.cause : error;
  return isPlatformError(cause) && platformFailureKind(cause) === 'refused';
}

/** Names an account without its secret: the same origin, number and credential make the same key. */
function accountKey(account: WorkspacePlatformAccount): string {
  return createHash('sha256').update(JSON.stringify(account)).digest('base64url').slice(0, 32);
}

/** One account's token in a shared namespace, sealed like every credential at rest. */
function sealedTokenCache(tokens: Namespace<string>, sealer: Sealer, key: string): TokenCache {
  const sealed = sealedJson(tokens, sealer, 'platform-tokens', cachedTokenSchema);
  const lockKey = `${key}:lock`;
  return {
    get: () => sealed.get(key),
    async set(entry: CachedToken): Promise<void> {
      const ttlSeconds = Math.floor((entry.expiresAt - Date.now()) / 1000);
      if (ttlSeconds < 1) return;
      await sealed.set(key, entry, ttlSeconds);
    },
    async lock(ttlMs: number): Promise<(() => Promise<void>) | undefined> {
      const taken = await tokens.claim(lockKey, Math.max(1, Math.ceil(ttlMs / 1000)));
      return taken ? () => tokens.release(lockKey) : undefined;
    },
  };
}

/** What the operators' desk reads of the platform: tickets, agents, statistics. */
export type DeskPlatform = TicketsApi & AgentsApi & StatisticsApi;

/** The desk's platform for one workspace: its account's, found at each call; none set up throws. */
function deskPlatformOf(accounts: PlatformAccounts<PlatformClient>, workspace: string): DeskPlatform {
  const client = async (): Promise<PlatformClient> => {
    const found = await accounts.accountOf(workspace);
    if (found.kind === 'not_set_up')
      throw new NotSetUpError(`no platform account is set up for ${workspace}`);
    return found.account.robot;
  };
  return {
    listTickets: async (request, options) => (await client()).listTickets(request, options),
    listAgents: async (request, options) => (await client()).listAgents(request, options),
    getSessionMessageStatistics: async (request, options) =>
      (await client()).getSessionMessageStatistics(request, options),
    getHumanSatisfactionStatistics: async (request, options) =>
      (await client()).getHumanSatisfactionStatistics(request, options),
  };
}
