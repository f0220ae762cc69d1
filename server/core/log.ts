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

let stdoutDestination: ReturnType<typeof pino.destination> | null = null;

/**
 * One asynchronous stdout writer per process, flushed when the process exits: lines written
 * while a write is in flight go out together in the next one (one syscall per batch).
 */
function asyncStdout(): ReturnType<typeof pino.destination> {
  if (!stdoutDestination) {
    const destination = pino.destination({ dest: 1, sync: false });
    process.on('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // stdout already closed: nothing left to write to.
      }
    });
    stdoutDestination = destination;
  }
  return stdoutDestination;
}

/** The process's log stream for a format. */
export function logStream(format: 'pretty' | 'json'): pino.DestinationStream {
  return format === 'pretty' ? prettyStream() : asyncStdout();
}
