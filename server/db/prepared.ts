// Marks a statement that every request runs (the guard's session read, a list page) for
// PostgreSQL to plan once per connection (connect.ts): `.modifyFront(prepared)`. Mark only
// statements whose generic plan is as good as a fresh one for any parameters they are given.
import { sql } from 'kysely';

export const PREPARED_MARK = '/* prepared */';

export const prepared = sql.raw(PREPARED_MARK);
