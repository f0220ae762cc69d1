/** The app's log lines, captured from the stream tests hand it (`deps.logStream`). */
import { Writable } from 'node:stream';

/** A stream for the app's logs and the lines written to it so far, as text. */
export function captureLogLines(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

/** The same for JSON logs: each line parsed. */
export function captureLogEntries<T = Record<string, unknown>>(): { stream: Writable; lines: T[] } {
  const lines: T[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as T);
      }
      done();
    },
  });
  return { stream, lines };
}
