// One Slack workspace of the playground: what it holds, its Web API, and its way to the gateway.
import type { GatewayRequests } from './gateway-requests.js';
import type { SlackStandIn } from './slack-stand-in/web-api.js';
import type { Workspace } from './workspace.js';

export interface PlaygroundSpace {
  workspace: Workspace;
  standIn: SlackStandIn;
  /** Set once the gateway is up: the page's actions go through it. */
  requests: () => GatewayRequests | undefined;
}
