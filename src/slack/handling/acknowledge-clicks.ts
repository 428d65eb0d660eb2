// Acknowledges every click, handled or not: an unacknowledged one shows the user an error.
import type { AckFn } from '@slack/bolt';

export async function acknowledgeClick({ ack }: { ack: AckFn<void> }): Promise<void> {
  await ack();
}
