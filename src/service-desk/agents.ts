// The agents of a service group, for those who lead the service team; Slack renders the result.

import type { Agent, AgentListRequest } from '../platform/schemas.js';
import { isGroupId } from './agent-groups.js';
import { type DeskFailureKind, platformFailureReason } from './platform-failure.js';

export interface AgentsApi {
  listAgents(request: AgentListRequest, options?: { requestId?: string }): Promise<Agent[]>;
}

interface GroupAgent {
  id: string;
  /** The agent's name, or their id when the platform gave none. */
  name: string;
}

export type AgentsResult =
  | { kind: 'agents'; groupId: string; agents: GroupAgent[] }
  /** The platform does not tell an unknown group from an empty one: both are "no agents". */
  | { kind: 'none'; groupId: string }
  | { kind: 'invalid_group'; groupId: string }
  | { kind: 'failure'; groupId: string; reason: DeskFailureKind };

/** Names in Latin and Chinese scripts, sorted as a reader of either expects. */
const byName = new Intl.Collator(['en', 'zh-CN'], { sensitivity: 'base', numeric: true });

export async function groupAgents(
  api: AgentsApi,
  groupId: string,
  scope: { requestId?: string } = {},
): Promise<AgentsResult> {
  if (!isGroupId(groupId)) return { kind: 'invalid_group', groupId };
  let agents: Agent[];
  try {
    agents = await api.listAgents({ groupId }, scope);
  } catch (error) {
    return { kind: 'failure', groupId, reason: platformFailureReason(error) };
  }
  if (agents.length === 0) return { kind: 'none', groupId };
  const named = agents.map((agent) => ({
    id: agent.serviceId,
    name: agent.serviceName?.trim() || agent.serviceId,
  }));
  named.sort((a, b) => byName.compare(a.name, b.name) || byName.compare(a.id, b.id));
  return { kind: 'agents', groupId, agents: named };
}
