/**
 * Where log lines go. JSON (pino's own lines) for collectors: production, and any stdout that is
 * not a terminal. In a terminal, one readable line per entry (pino-pretty), a request as
 * `GET /pricing 200 3 ms`. LOG_FORMAT=pretty|json chooses either way (server/config.ts).
 */
import pino from 'pino';
import pretty from 'pino-pretty';

interface RequestLine {
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** `GET /pricing 200 3 ms` for an access-log entry; the message itself otherwise. */
export function formatLogMessage(entry: Record<string, unknown>, messageKey: string): string {
  const message = String(entry[messageKey] ?? '');
  const { req, res, responseTime } = entry as RequestLine;
  if (!req?.method || !res?.statusCode) return message;
  const ms = typeof responseTime === 'number' ? ` ${responseTime.toFixed(0)} ms` : '';
  const line = `${req.method} ${req.url ?? ''} ${res.statusCode}${ms}`;
  return message === 'request completed' ? line : `${line} ${message}`;
}

/** A human-readable stream: time, level, message, and any other fields on the same line. */
export function prettyStream(
  destination: NodeJS.WritableStream = process.stdout,
  colorize = process.stdout.isTTY === true,
): pino.DestinationStream {
  return pretty({
    destination,
    colorize,
    sync: true,
    singleLine: true,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname,req,res,responseTime,reqId',
    messageFormat: (entry, messageKey) => formatLogMessage(entry, messageKey),
  });
}

/**
 * Lines are handed on once this many bytes are waiting (about 350 access lines)... Each write
 * costs the same whatever its size (a thread-pool round trip and a system call): on this
 * project's two-core bench machine 4 KB batches still cost about 8 µs per request more than
 * writing nothing, 64 KB ones too little to measure (issue 33).
 */
const LOG_BATCH_BYTES = 64 * 1024;
/** ...or this often, so a quiet server's lines still show at once. */
const LOG_FLUSH_EVERY_MS = 250;

interface Destination {
  write(text: string): unknown;
  flush(callback?: (error?: Error | null) => void): void;
  flushSync(): void;
}

/**
 * Log lines gathered in memory and handed to `destination` as one string of LOG_BATCH_BYTES or
 * more, every LOG_FLUSH_EVERY_MS at the latest, and all at once by `flushSync` (at exit). In front
 * of pino's asynchronous destination rather than its own `minLength`: that one measures and
 * flattens its growing buffer string on every line, which cost more than writing line by line;
 * here each line is an array push and each batch one join.
 */
export class LineBatch {
  #lines: string[] = [];
  #bytes = 0;
  readonly #destination: Destination;
  readonly #timer: NodeJS.Timeout;

  constructor(destination: Destination, everyMs = LOG_FLUSH_EVERY_MS) {
    this.#destination = destination;
    this.#timer = setInterval(() => this.#handOn(), everyMs);
    this.#timer.unref();
  }

  write(line: string): boolean {
    this.#lines.push(line);
    this.#bytes += line.length;
    if (this.#bytes >= LOG_BATCH_BYTES) this.#handOn();
    return true;
  }

  #handOn(): void {
    if (this.#lines.length === 0) return;
    const text = this.#lines.length === 1 ? this.#lines[0]! : this.#lines.join('');
    this.#lines = [];
    this.#bytes = 0;
    this.#destination.write(text);
  }

  /** pino's `logger.flush()`: what waits here, then the destination's own buffer. */
  flush(callback?: (error?: Error | null) => void): void {
    this.#handOn();
    this.#destination.flush(callback);
  }

  flushSync(): void {
    this.#handOn();
    this.#destination.flushSync();
  }

  /** Stops the timer (tests); the process's own batch lives as long as the process. */
  stop(): void {
    clearInterval(this.#timer);
    this.#handOn();
  }
}

let stdoutBatch: LineBatch | null = null;

/**
 * One asynchronous, batched stdout writer per process (LineBatch over pino's asynchronous
 * destination): the request path only appends to an array, and the writes happen a batch at a
 * time off it; whatever waits is written synchronously when the process exits. Line by line, the
 * log took about a fifth of a public read's CPU under load (issue 33).
 */
function asyncStdout(): LineBatch {
  if (!stdoutBatch) {
    const batch = new LineBatch(pino.destination({ dest: 1, sync: false }));
    process.on('exit', () => {
      try {
        batch.flushSync();
      } catch {
        // stdout already closed: nothing left to write to.
      }
    });
    stdoutBatch = batch;
  }
  return stdoutBatch;
}

/** The process's log stream for a format. */
export function logStream(format: 'pretty' | 'json'): pino.DestinationStream {
  return format === 'pretty' ? prettyStream() : asyncStdout();
}
