/**
 * What the app's thread and the embedded database's thread say to each other
 * (core/pglite-remote.ts, core/pglite-thread.ts).
 */

/** The thread's start: a data directory, or an in-memory database copied from a dump. */
export interface ThreadData {
  dataDir?: string;
  loadDataDir?: ArrayBuffer;
}

/** What is asked; `rawTypes`: the type ids whose text is kept as it is (drizzle's parsers). */
export type RequestBody =
  | {
      op: 'query';
      sql: string;
      params?: unknown[];
      rowMode?: 'array' | 'object';
      rawTypes?: number[];
      tx?: number;
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin'; tx: number }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'listen'; channel: string }
  | { op: 'unlisten'; channel: string }
  | { op: 'dump' }
  | { op: 'close' };

/** A request, numbered for its answer. */
export type Request = { id: number } & RequestBody;

/** A database error as plain data: its message and PostgreSQL's fields (code, constraint, …). */
export interface ErrorData {
  name: string;
  message: string;
  stack?: string;
  fields: Record<string, string | number | boolean>;
}

export type Reply =
  | { id: number; result: unknown }
  | { id: number; error: ErrorData }
  | { notify: string; payload: string }
  | { ready: true }
  | { ready: false; error: ErrorData };

/** An error's message and its plain fields: structured cloning keeps only the message. */
export function describeError(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: ErrorData['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (['string', 'number', 'boolean'].includes(typeof value)) {
      fields[key] = value as string | number | boolean;
    }
  }
  return { name: error.name, message: error.message, stack: error.stack, fields };
}

/** The error again, on this side: the same message, name and fields (`code`, `constraint`…). */
export function rebuildError(data: ErrorData): Error {
  const error = Object.assign(new Error(data.message), data.fields);
  error.name = data.name;
  if (data.stack) error.stack = `${data.stack}\n    (in the database thread)`;
  return error;
}
