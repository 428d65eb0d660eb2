// The seam between the app and tracing: empty unless tracing.ts installed its hooks at start-up.

/** What the app tells a trace; the values are ids and codes, never text a person wrote. */
export interface TraceHooks {
  /** Runs one Slack delivery (event, click, submission, command) as the span its work hangs under. */
  delivery<T>(body: unknown, run: () => Promise<T>): Promise<T>;
  /** The room that took the delivery in hand (answers, review, desk...). */
  surface(name: string): void;
  /** What became of the delivery, as the metrics count it. */
  outcome(kind: string, outcome: string): void;
  /** One call through a store's contract, whichever engine is behind it. */
  storeCall<T>(store: string, operation: string, call: () => Promise<T>): Promise<T>;
}

let installed: TraceHooks | undefined;

/** Called once by tracing.ts, before the app is imported. */
export function installTraceHooks(hooks: TraceHooks): void {
  installed = hooks;
}

/** Undefined with tracing off: callers decide once, at construction, and add nothing per request. */
export function traceHooks(): TraceHooks | undefined {
  return installed;
}
