// The service groups people can name: the platform cannot list them, so AGENT_GROUPS names the ids.

export interface AgentGroup {
  id: string;
  name: string;
}

/** The spec's length limit on groupId. */
const GROUP_ID_MAX = 36;
/** A group's name is a button's text, which Slack cuts at 75 characters. */
const GROUP_NAME_MAX = 75;

/** True for text the platform could take as a groupId: short, one word, no control characters. */
export function isGroupId(text: string): boolean {
  return text !== '' && text.length <= GROUP_ID_MAX && !/[\s\p{Cc}]/u.test(text);
}

/** A name as people type it: case, width and runs of spaces do not make another name. */
function nameKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLocaleLowerCase('en');
}

/** The group `typed` names (its name in any case and spacing, or its id), or undefined. */
export function findAgentGroup(groups: readonly AgentGroup[], typed: string): AgentGroup | undefined {
  const key = nameKey(typed);
  if (key === '') return undefined;
  return (
    groups.find((group) => nameKey(group.name) === key) ?? groups.find((group) => group.id === typed.trim())
  );
}

/** The name people know a group id by, or undefined for a group nobody named. */
export function agentGroupName(groups: readonly AgentGroup[], groupId: string): string | undefined {
  return groups.find((group) => group.id === groupId)?.name;
}

export type AgentGroupsProblem =
  | { kind: 'not_a_pair'; index: number }
  | { kind: 'bad_id'; index: number }
  | { kind: 'bad_name'; index: number }
  | { kind: 'duplicate_id'; index: number }
  | { kind: 'duplicate_name'; index: number };

/** `id=name` pairs separated by commas, as AGENT_GROUPS is written; each bad pair a problem, from 1. */
export function parseAgentGroups(text: string): { groups: AgentGroup[]; problems: AgentGroupsProblem[] } {
  const groups: AgentGroup[] = [];
  const problems: AgentGroupsProblem[] = [];
  const items = text
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  items.forEach((item, position) => {
    const index = position + 1;
    const equals = item.indexOf('=');
    if (equals < 0) {
      problems.push({ kind: 'not_a_pair', index });
      return;
    }
    const id = item.slice(0, equals).trim();
    const name = item
      .slice(equals + 1)
      .replace(/\s+/g, ' ')
      .trim();
    if (!isGroupId(id)) problems.push({ kind: 'bad_id', index });
    else if (name === '' || [...name].length > GROUP_NAME_MAX || /\p{Cc}/u.test(name)) {
      problems.push({ kind: 'bad_name', index });
    } else if (groups.some((group) => group.id === id)) problems.push({ kind: 'duplicate_id', index });
    else if (groups.some((group) => nameKey(group.name) === nameKey(name))) {
      problems.push({ kind: 'duplicate_name', index });
    } else groups.push({ id, name });
  });
  return { groups, problems };
}
