// Installing in many workspaces with Slack's own InstallProvider: the install page and OAuth redirect
// on our receiver, installations kept sealed, and Bolt's authorize reading them per request.
import type { ServerResponse } from 'node:http';
import { type AuthorizeResult, type InstallationQuery, webApi } from '@slack/bolt';
import { InstallProvider, type Logger as OAuthLogger } from '@slack/oauth';
import { LRUCache } from 'lru-cache';
import { errorFields } from '../../logging/error-fields.js';
import type { Logger } from '../../logging/logger.js';
import { guardOutgoingCalls, webApiRetryPolicy } from '../transport/outgoing.js';
import type { PageRoute } from '../transport/receiver.js';
import { OnceStates } from './install-states.js';
import {
  type Installations,
  installationKey,
  NotInstalledError,
  notInstalled,
  type StoredInstallation,
} from './installations.js';
import { queryOfRequest } from './org-workspaces.js';
import { failedPage, INSTALL_PATH, installedPage, installPage, REDIRECT_PATH } from './pages.js';
import { type RotationLocks, TokenRotation } from './rotation.js';
import { BOT_SCOPES } from './scopes.js';

export interface Installer {
  pages: readonly PageRoute[];
  /** Bolt passes the request's body second. */
  authorize(source: InstallationQuery<boolean>, body?: unknown): Promise<AuthorizeResult>;
  /** For a post outside any request: the bot token of the installation under `workspace`, refreshed if due. */
  botTokenOf(workspace: string): Promise<string | undefined>;
}

export function createInstaller(options: {
  clientId: string;
  clientSecret: string;
  stateSecret: string;
  installations: Installations;
  /** Where each state is claimed once, on every replica. */
  stateClaims: { claim(key: string, ttlSeconds: number): Promise<boolean> };
  /** Where each installation's token refresh is claimed once, on every replica. */
  rotationLocks: RotationLocks;
  /** The Web API connection's options: oauth.v2.access and auth.test go where every call goes. */
  clientOptions: webApi.WebClientOptions;
  logger: Logger;
  sdkLogger: OAuthLogger;
  /** Counts a request from a workspace with no installation. */
  onNotInstalled(): void;
  /** Counts a token due for a refresh that was not refreshed. */
  onRefreshFailed(): void;
}): Installer {
  const installUrlOptions = { scopes: [...BOT_SCOPES] };
  const provider = new InstallProvider({
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    stateStore: new OnceStates(options.stateSecret, options.stateClaims, installUrlOptions),
    installationStore: options.installations,
    installUrlOptions,
    renderHtmlForInstallPath: installPage,
    clientOptions: { ...options.clientOptions },
    logger: options.sdkLogger,
  });
  const { logger } = options;
  const rotation = new TokenRotation({
    installations: options.installations,
    locks: options.rotationLocks,
    // Not retried: Slack takes a refresh token once, so a retry of a refresh it took is refused.
    client: guardOutgoingCalls(
      new webApi.WebClient(undefined, {
        ...options.clientOptions,
        retryConfig: webApiRetryPolicy(0),
        logger: options.sdkLogger,
      }),
    ),
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    logger,
    onRefreshFailed: options.onRefreshFailed,
  });
  // Once an hour per workspace: a workspace that removed the app may keep sending for a while.
  const refusedLately = new LRUCache<string, true>({ max: 10_000, ttl: 60 * 60 * 1000 });
  return {
    pages: [
      [
        INSTALL_PATH,
        (request, response) => provider.handleInstallPath(request, response, {}, installUrlOptions),
      ],
      [
        REDIRECT_PATH,
        (request, response) =>
          provider.handleCallback(request, response, {
            success: (installation, _options, _request, callbackResponse) => {
              logger.info(
                {
                  teamId: installation.team?.id,
                  enterpriseId: installation.enterprise?.id,
                  orgWide: installation.isEnterpriseInstall === true,
                },
                'installed',
              );
              sendHtml(callbackResponse, 200, installedPage(installation));
            },
            failure: (error, _options, _request, callbackResponse) => {
              logger.warn({ code: error.code, reason: error.message }, 'an install did not finish');
              sendHtml(callbackResponse, 400, failedPage(error.code));
            },
          }),
      ],
    ],
    async botTokenOf(workspace) {
      const query = await options.installations.queryOf(workspace);
      return query && (await rotation.current(query))?.bot?.token;
    },
    async authorize(source, body) {
      try {
        const query = queryOfRequest(source, body);
        const installation = await rotation.current(query);
        if (!installation) throw notInstalled(source);
        return authorizeResult(installation, query);
      } catch (error) {
        const workspace = installationKey(source) ?? 'unknown';
        if (!(error instanceof NotInstalledError)) {
          logger.error(
            { ...errorFields(error), workspace },
            'could not read the installation; nothing answered',
          );
        } else {
          options.onNotInstalled();
          if (!refusedLately.has(workspace)) {
            refusedLately.set(workspace, true);
            logger.warn(
              { workspace },
              'a workspace without the app installed sent a request; nothing answered',
            );
          }
        }
        throw error;
      }
    },
  };
}

/**
 * As InstallProvider's authorize builds it, but from the installation rotation just made fit to use,
 * so nothing refreshes a token again; the refresh tokens stay out of every listener's context.
 */
function authorizeResult(
  installation: StoredInstallation,
  source: InstallationQuery<boolean>,
): AuthorizeResult {
  const { bot, user } = installation;
  // An org-wide install names no team: the event's is the one answered.
  const teamId = installation.team?.id ?? source.teamId;
  const enterpriseId = installation.enterprise?.id ?? source.enterpriseId;
  return {
    ...(bot ? { botToken: bot.token, botId: bot.id, botUserId: bot.userId } : {}),
    ...(user.token === undefined ? {} : { userToken: user.token }),
    ...(teamId === undefined ? {} : { teamId }),
    ...(enterpriseId === undefined ? {} : { enterpriseId }),
  };
}

function sendHtml(response: ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(html);
}
