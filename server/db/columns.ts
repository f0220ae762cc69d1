/** The column helpers every schema module shares. */
import { timestamp } from 'drizzle-orm/pg-core';

/** Every time in the schema is a timestamptz. */
export const at = (name: string) => timestamp(name, { withTimezone: true });

/** When the row was made. */
export const createdAt = () => at('created_at').notNull().defaultNow();
