// Carries the id of the request being handled through every await, so that each log line written
// while answering one question (core, platform client, Slack adapter) names the same request.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const storage = new AsyncLocalStorage<{ requestId: string }>();

export function withRequestId<T>(task: () => Promise<T>, requestId: string = randomUUID()): Promise<T> {
  return storage.run({ requestId }, task);
}

export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}
