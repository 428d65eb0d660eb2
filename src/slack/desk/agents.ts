// `/cs agents [group]`, for operators: the named groups as buttons, or a group's agents by name or id.
import type { Locale } from '../../conversation/locale.js';
import { findAgentGroup, isGroupId } from '../../service-desk/agent-groups.js';
import { groupAgents } from '../../service-desk/agents.js';
import { operatorRefusal } from '../access/operator-gate.js';
import { type ClickArgs, trackedClickListener } from '../handling/click.js';
import type { Handling } from '../handling/handling.js';
import type { RenderedMessage } from '../kit/elements.js';
import { postToResponseUrl } from '../transport/response-url.js';
import { renderAgentGroups, renderAgents, renderAgentsUsage } from './command-views.js';
import { ACTION_AGENTS_RETRY } from './ids.js';
import type { DeskDeps } from './pieces.js';

/** What `/cs agents` answers to `typed`, the words after it ('' for none). */
export async function agentsMessage(
  deps: DeskDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  typed: string,
): Promise<RenderedMessage> {
  const groups = deps.agentGroups;
  if (typed === '') {
    deps.onEvent('agents', groups.length > 0 ? 'groups' : 'usage');
    return groups.length > 0
      ? renderAgentGroups(locale, command, groups)
      : renderAgentsUsage(locale, command);
  }
  const named = findAgentGroup(groups, typed);
  // Words no group goes by, and that cannot be an id either: the groups there are, rather than a call.
  if (!named && groups.length > 0 && !isGroupId(typed)) {
    deps.onEvent('agents', 'unknown_group');
    return renderAgentGroups(locale, command, groups, typed);
  }
  return listedAgents(deps, handling, locale, command, named?.id ?? typed);
}

async function listedAgents(
  deps: DeskDeps,
  handling: Handling,
  locale: Locale,
  command: string,
  groupId: string,
): Promise<RenderedMessage> {
  const result = await groupAgents(deps.platformOf(handling.teamId), groupId, {
    requestId: handling.requestId,
  });
  deps.onEvent('agents', result.kind);
  if (result.kind === 'failure') {
    handling.logger.warn({ groupId, reason: result.reason }, 'agents not listed: the platform failed');
  }
  return renderAgents(locale, command, result, deps.agentGroups);
}

/** A named group's button, or Try again under a failure: the group's agents, for operators only. */
export function agentsClickListener(deps: DeskDeps, command: string): (args: ClickArgs) => Promise<void> {
  return trackedClickListener(deps, 'agents click failed', async (handling, click) => {
    const actionId = click.payload.actions[0]?.action_id ?? '';
    const groupId = click.value;
    const responseUrl = click.payload.response_url;
    if (groupId === undefined || !isGroupId(groupId) || !responseUrl) {
      handling.logger.warn({ actionId }, 'ignored an agents click with a malformed value');
      return;
    }
    const retry = actionId === ACTION_AGENTS_RETRY;
    const { locale } = await handling.person(click.userId);
    const respond = (message: RenderedMessage, replace: boolean) =>
      postToResponseUrl(responseUrl, { message, replace }, handling.logger);
    const refusal = await operatorRefusal(deps.access, handling, click.userId, locale, 'agents_click');
    if (refusal) {
      await respond({ text: refusal, blocks: [] }, false);
      return;
    }
    // The list of groups stays, for the next click; a failure gives way to what its Try again found.
    await respond(await listedAgents(deps, handling, locale, command, groupId), retry);
  });
}
