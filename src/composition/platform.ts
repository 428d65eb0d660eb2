// With no CS_OPEN_URL the gateway talks to the built-in simulator (demo mode), announced loudly.
import type { Env } from '../config/env.js';
import type { Logger } from '../logging/logger.js';
import {
  type AccessTokenProvider,
  FetchedTokenProvider,
  type PlatformClientOptions,
  StaticTokenProvider,
} from '../platform/index.js';
import type { AgentGroup } from '../service-desk/agent-groups.js';
import type { Stores } from '../stores/stores.js';

const DEMO_SYS_NUM = 'demo';

export interface PlatformChoice {
  client: { openUrl: string; baseUrl: string; tokenProvider: AccessTokenProvider };
  sysNum: string;
  /** Answers come from the simulator's demo knowledge base. */
  demo: boolean;
  /** AGENT_GROUPS, else, in demo mode, the simulator's. */
  agentGroups: readonly AgentGroup[];
  /** Nothing to close outside demo mode. */
  close(): Promise<void>;
}

export interface PlatformChoiceDeps {
  timeouts: PlatformClientOptions['timeouts'];
  /** With Redis, replicas share one fetched token. */
  tokenCache: Stores['tokenCache'];
  logger: Logger;
}

export async function choosePlatform(env: Env, deps: PlatformChoiceDeps): Promise<PlatformChoice> {
  const { platform } = env;
  if (platform.kind === 'configured') {
    const { openUrl, baseUrl, sysNum, credential } = platform;
    const tokenProvider =
      credential.kind === 'fetched'
        ? new FetchedTokenProvider({
            openUrl,
            appId: credential.appId,
            appKey: credential.appKey,
            expireHours: credential.expireHours,
            timeouts: deps.timeouts,
            ...(deps.tokenCache ? { cache: deps.tokenCache } : {}),
          })
        : new StaticTokenProvider(credential.accessToken);
    return {
      client: { openUrl, baseUrl, tokenProvider },
      sysNum,
      demo: false,
      agentGroups: env.AGENT_GROUPS ?? [],
      close: async () => {},
    };
  }
  // Loaded in demo mode alone: a configured platform never holds the simulator's knowledge base.
  const { DEFAULT_SIMULATOR_TOKEN, SERVICE_GROUPS, startSimulator } = await import('../simulator/index.js');
  const simulator = await startSimulator({
    accessToken: DEFAULT_SIMULATOR_TOKEN,
    host: '127.0.0.1',
    port: 0,
  });
  deps.logger.warn(
    { platformUrl: simulator.url },
    '*** DEMO MODE: CS_OPEN_URL is not set, so answers come from the built-in platform simulator and its demo knowledge base. Set CS_OPEN_URL to use your platform. ***',
  );
  return {
    client: {
      openUrl: simulator.url,
      baseUrl: simulator.url,
      tokenProvider: new StaticTokenProvider(DEFAULT_SIMULATOR_TOKEN),
    },
    sysNum: DEMO_SYS_NUM,
    demo: true,
    // The platform has no call that lists its groups: the demo names the simulator's so they can be found.
    agentGroups:
      env.AGENT_GROUPS ?? SERVICE_GROUPS.map((group) => ({ id: group.groupId, name: group.groupName })),
    close: () => simulator.close(),
  };
}
