// Acknowledges every click, whichever listener handles it, or none (a link button, an unknown id):
// an unacknowledged click shows the user an error, and Bolt holds its request for 3 s.
import type { AckFn } from '@slack/bolt';

export async function acknowledgeClick({ ack }: { ack: AckFn<void> }): Promise<void> {
  await ack();
}
