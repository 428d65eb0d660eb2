// The Home tab's example questions share one actions block, where action_ids must be unique:
// `home_example:<index>`.

export const HOME_EXAMPLE_ACTION_PATTERN = /^home_example:\d+$/;

export function homeExampleActionId(index: number): string {
  return `home_example:${index}`;
}
