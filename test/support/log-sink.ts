// A pino destination that parses every line back into an object, so tests assert on log records
// (that a secret is redacted, that a line carries the request id) rather than on text.
import { Writable } from 'node:stream';

export interface LogRecord {
  level: number;
  msg: string;
  [field: string]: unknown;
}

export interface LogSink {
  destination: Writable;
  /** Every line as written, for checks on the raw text (that a secret appears nowhere). */
  lines: string[];
  /** Every record written so far, oldest first; the array grows as the logger writes. */
  records: LogRecord[];
}

export function logSink(): LogSink {
  const lines: string[] = [];
  const records: LogRecord[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) {
        if (!line.trim()) continue;
        lines.push(line);
        records.push(JSON.parse(line) as LogRecord);
      }
      done();
    },
  });
  return { destination, lines, records };
}
